package dev.sluice.cli;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Level;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.logging.LoggingPreferences;

/**
 * Debian's Chromium and ChromeDriver ({@code apt-get install chromium chromium-driver}, which
 * {@code .ci/run} does), driven by Selenium: headless, with the flags this machine needs (no
 * sandbox as root; no background networking, which the closed network refuses). A test that needs
 * it is skipped without it, or fails under {@code SLUICE_REQUIRE_CHROMIUM=1}.
 */
final class HeadlessChromium {
    static final Path CHROMIUM = Path.of(env("SLUICE_CHROMIUM", "/usr/bin/chromium"));
    static final Path DRIVER = Path.of(env("SLUICE_CHROMEDRIVER", "/usr/bin/chromedriver"));

    private HeadlessChromium() {}

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }

    /** Skips (or fails, when required) unless both binaries are there. */
    static void require() {
        if (Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER)) {
            return;
        }
        String problem =
                "no " + CHROMIUM + " or " + DRIVER + " (apt-get install chromium chromium-driver)";
        if ("1".equals(System.getenv("SLUICE_REQUIRE_CHROMIUM"))) {
            fail(problem);
        }
        assumeTrue(false, problem);
    }

    /** A new headless browser that keeps the page's console messages (quit it). */
    static ChromeDriver start(Path profile) {
        require();
        ChromeOptions o = new ChromeOptions();
        o.setBinary(CHROMIUM.toFile());
        o.addArguments(
                List.of(
                        "--headless=new",
                        "--no-sandbox",
                        "--disable-gpu",
                        "--disable-quic",
                        "--no-first-run",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                        "--disable-dev-shm-usage",
                        "--window-size=1280,1000",
                        "--user-data-dir=" + profile));
        LoggingPreferences logs = new LoggingPreferences();
        logs.enable(LogType.BROWSER, Level.ALL);
        o.setCapability("goog:loggingPrefs", logs);
        ChromeDriverService service =
                new ChromeDriverService.Builder()
                        .usingDriverExecutable(new File(DRIVER.toString()))
                        .usingAnyFreePort()
                        .build();
        return new ChromeDriver(service, o);
    }
}
