package dev.sluice.pipeline.source.file;

import com.github.luben.zstd.ZstdOutputStream;
import dev.sluice.pipeline.checkpoint.LocalCheckpoints;
import dev.sluice.pipeline.source.Source;
import dev.sluice.pipeline.source.SourceFactory;
import dev.sluice.pipeline.spec.PipelineSpec;
import dev.sluice.pipeline.spec.PipelineSpec.DecodeSpec;
import dev.sluice.pipeline.spec.PipelineSpec.Format;
import dev.sluice.pipeline.time.Clock;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/** Test files and sources over them. */
final class Inputs {
    private Inputs() {}

    static DecodeSpec decode(Format format, boolean header) {
        return new DecodeSpec(
                format, List.of(), header, Map.of(), false, format == Format.TSV ? '\t' : ',');
    }

    static Path write(Path file, String content) throws IOException {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        String name = file.getFileName().toString();
        try (OutputStream out = compressing(name, Files.newOutputStream(file))) {
            out.write(bytes);
        }
        return file;
    }

    static OutputStream compressing(String name, OutputStream raw) throws IOException {
        if (name.endsWith(".gz")) {
            return new GZIPOutputStream(raw);
        }
        if (name.endsWith(".zst")) {
            return new ZstdOutputStream(raw);
        }
        return raw;
    }

    /** Cuts {@code file} to {@code fraction} of its size, as a copy interrupted midway would. */
    static void truncate(Path file, double fraction) throws IOException {
        byte[] all = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(all, (int) (all.length * fraction)));
    }

    static List<Source> sources(
            List<String> paths,
            DecodeSpec decode,
            int maxRecordBytes,
            int readers,
            LocalCheckpoints store)
            throws IOException {
        return SourceFactory.create(
                new PipelineSpec.FileSource(paths, false, maxRecordBytes),
                decode,
                readers,
                store,
                Clock.SYSTEM);
    }

    static Source source(Path file, DecodeSpec decode, LocalCheckpoints store) throws IOException {
        return sources(List.of(file.toString()), decode, 1 << 20, 1, store).get(0);
    }

    static String lines(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append("{\"id\":")
                    .append(i)
                    .append(",\"payload\":\"")
                    .append("p".repeat(i % 50))
                    .append("\"}\n");
        }
        return sb.toString();
    }
}
