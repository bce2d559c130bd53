package dev.sluice.cli;

import dev.sluice.rigs.report.ReportBuilder;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code sluice bench report DIR... --out FILE}: a report from one or more runs' results. */
@Command(
        name = "report",
        usageHelpAutoWidth = true,
        mixinStandardHelpOptions = true,
        description = {
            "Rebuild the HTML report from one or more results (directories written by sluice bench,"
                    + " or their results.jsonl): to compare runs, machines, versions."
        })
final class BenchReportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "DIR", description = "results directories or files")
    List<Path> inputs;

    @Option(names = "--out", paramLabel = "FILE", description = "the HTML report")
    Path out;

    @Option(
            names = "--markdown",
            paramLabel = "FILE",
            description = "the same figures as Markdown tables (the README's benchmark section)")
    Path markdown;

    @Override
    public Integer call() throws Exception {
        if (out == null && markdown == null) {
            throw new IllegalArgumentException("give --out FILE (HTML) and/or --markdown FILE");
        }
        if (out != null) {
            ReportBuilder.write(inputs, out);
            System.out.println("report: " + out.toAbsolutePath());
        }
        if (markdown != null) {
            ReportBuilder.writeMarkdown(inputs, markdown);
            System.out.println("markdown: " + markdown.toAbsolutePath());
        }
        return 0;
    }
}
