package dev.sluice.connect;

/** The connector's version, as the worker reports it. */
final class Version {
    static final String VERSION;

    static {
        String v = Version.class.getPackage().getImplementationVersion();
        VERSION = v != null ? v : "0.1.0-SNAPSHOT";
    }

    private Version() {}
}
