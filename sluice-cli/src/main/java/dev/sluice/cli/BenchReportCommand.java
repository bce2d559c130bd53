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
        mixinStandardHelpOptions = true,
        description = {
            "Rebuild the HTML report from one or more results (directories written by sluice bench,"
                    + " or their results.jsonl): to compare runs, machines, versions."
        })
final class BenchReportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "DIR", description = "results directories or files")
    List<Path> inputs;

    @Option(names = "--out", required = true, paramLabel = "FILE", description = "the HTML file")
    Path out;

    @Override
    public Integer call() throws Exception {
        ReportBuilder.write(inputs, out);
        System.out.println("report: " + out.toAbsolutePath());
        return 0;
    }
}
