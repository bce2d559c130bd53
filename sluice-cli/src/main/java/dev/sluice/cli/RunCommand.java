package dev.sluice.cli;

import dev.sluice.pipeline.config.ConfigLoader;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.time.Clock;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code sluice run}: a pipeline from its YAML configuration, until done or signalled. */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Run a pipeline from a YAML file (see docs/configuration.md and examples/).",
            "Resumes from the positions committed in checkpoint.dir. SIGTERM or SIGINT drains:"
                    + " in-flight batches finish, positions are committed, and the exit code is 0."
        })
final class RunCommand implements Callable<Integer> {
    @Parameters(paramLabel = "PIPELINE.yaml", description = "The pipeline configuration")
    Path config;

    @Override
    public Integer call() throws Exception {
        PipelineSpec spec = ConfigLoader.system().load(config);
        long expected = spec.source() instanceof PipelineSpec.GeneratorSource g ? g.rows() : 0;
        return new PipelineRunner(System.out, System.err)
                .showNotes()
                .run(spec, new SpecFactories(spec, Clock.SYSTEM, System.in), expected);
    }
}
