package dev.fulcrum.config;

/**
 * Sticky sessions ({@code stickySession}, docs/REFERENCE.md §2.1 and §3): an opaque cookie pins a client to a backend.
 * {@code secret} (optional) goes into the key that signs the cookies: without it the key comes from the config
 * alone (cookie name, pools, backend ids and URLs), which a client that guesses them can recompute to forge a
 * cookie naming a backend of its choice. Instances that should honour each other's cookies share the secret.
 */
public record StickyConfig(boolean enabled, String cookie, long ttlSeconds, String secret) {
    public static final StickyConfig DEFAULT = new StickyConfig(false, "FULCRUM_STICKY", 3600, null);
}
