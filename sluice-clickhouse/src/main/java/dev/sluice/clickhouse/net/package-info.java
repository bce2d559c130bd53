/**
 * Socket plumbing shared by both transports: a TCP (or TLS) socket whose blocking writes and whole
 * operations are bounded by deadlines, and the one watchdog thread that enforces them.
 *
 * <p>Java's blocking socket writes have no timeout of their own (only reads have {@code
 * SO_TIMEOUT}), so a server that stops reading — stopped, overloaded, or behind a stalled proxy —
 * would hold a writer forever. Here every write and every operation arms a timer on the {@link
 * dev.sluice.clickhouse.net.Watchdog}; when one fires, the watchdog closes the TCP socket, which
 * makes the blocked call fail at once, and records why, so that the failure reads as a deadline and
 * not as a mysterious "socket closed". See
 * docs/adr/0008-deadlines-and-one-thread-per-connection.md.
 *
 * <p>Internal to the library: applications use {@code ClickHouseClient} and its options.
 */
package dev.sluice.clickhouse.net;
