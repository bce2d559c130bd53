package dev.sluice.cli;

import dev.sluice.pipeline.config.ConfigLoader;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.time.Clock;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice check}: validate a pipeline against its configuration and the server. */
@Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Validate a pipeline without moving data: the configuration, the target table on"
                    + " every replica, the column mapping with types and defaults, deduplication,"
                    + " the in-flight budget against the sizing rule, and a dry decode of the first"
                    + " records. Exits non-zero on any problem."
        })
final class CheckCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PIPELINE.yaml", description = "The pipeline configuration")
    Path config;

    @Option(names = "--no-sample", description = "Do not read the input")
    boolean noSample;

    @Override
    public Integer call() throws Exception {
        PipelineSpec spec = ConfigLoader.system().load(config);
        System.out.println("ok    configuration " + config + " (pipeline " + spec.name() + ")");
        return new Checker(System.out)
                .check(spec, new SpecFactories(spec, Clock.SYSTEM, System.in), !noSample);
    }
}
