package dev.fulcrum.config;

/** Sticky sessions ({@code stickySession}, CONTRACT 2.1 and 3): an opaque cookie pins a client to a backend. */
public record StickyConfig(boolean enabled, String cookie, long ttlSeconds) {
    public static final StickyConfig DEFAULT = new StickyConfig(false, "FULCRUM_STICKY", 3600);
}
