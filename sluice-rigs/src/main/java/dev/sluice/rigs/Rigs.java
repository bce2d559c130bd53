package dev.sluice.rigs;

import dev.sluice.rigs.compression.CompressionRig;
import dev.sluice.rigs.formats.FormatsRig;
import dev.sluice.rigs.kafka.KafkaRig;
import dev.sluice.rigs.peers.PeersRig;
import dev.sluice.rigs.saturation.SaturationRig;
import java.util.List;

/** Every rig, in the order {@code sluice bench all} runs them. */
public final class Rigs {
    private Rigs() {}

    public static List<Rig> all() {
        return List.of(
                new SaturationRig(),
                new FormatsRig(),
                new CompressionRig(),
                new PeersRig(),
                new KafkaRig());
    }
}
