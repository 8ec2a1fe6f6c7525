package dev.fulcrum.config;

/**
 * {@code routes[i].mirror}: a copy of {@code percent} (0-100) of the route's requests to {@code pool}, bodies up to
 * {@code maxBodyBytes} (default 65536).
 */
public record MirrorConfig(String pool, double percent, int maxBodyBytes) {
    public static final MirrorConfig DEFAULTS = new MirrorConfig(null, 100, 65536);
}
