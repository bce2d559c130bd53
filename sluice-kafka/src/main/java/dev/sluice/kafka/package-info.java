/**
 * The Kafka source: one consumer per pipeline thread in the pipeline's consumer group, partitions
 * paused (never unpolled) under backpressure, offsets committed only at the contiguous acknowledged
 * position, with the batch boundaries needed for deterministic replays in the offsets' metadata.
 */
package dev.sluice.kafka;
