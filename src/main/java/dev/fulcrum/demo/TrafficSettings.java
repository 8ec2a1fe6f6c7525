package dev.fulcrum.demo;

import dev.fulcrum.engine.sim.KeyDistribution;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * What the workshop traffic generator sends (see {@link TrafficGenerator}).
 *
 * <p>Example: 200 requests per second for 30 s through the proxy at {@code http://127.0.0.1:8080}, keys
 * Zipf-distributed over 100 keys and sent as {@code /k/<key>} (what the workshop's {@code key: path}
 * consistent hashing reads), one request in five a POST:
 * <pre>
 *   TrafficSettings.defaults(URI.create("http://127.0.0.1:8080"))
 *       .withRate(200).withDuration(Duration.ofSeconds(30))
 *       .withKeys(new KeyDistribution.Zipf(100, 1.0)).withPostShare(0.2)
 * </pre>
 *
 * @param target         the proxy's base URL, {@code http://host:port} (a path here is ignored)
 * @param path           the request path when the key is not placed in the path, e.g. {@code /}
 * @param ratePerSecond  open-loop target rate: one send every {@code 1/rate} seconds, whatever the answers do
 * @param maxConcurrency requests in flight at most; a send due while this many are outstanding is skipped and
 *                       counted, never queued (queuing would turn the open loop into a closed one)
 * @param duration       the generator stops by itself after this long
 * @param keys           how keys are drawn
 * @param keyPlacement   where the key goes in the request
 * @param postShare      share of requests sent as POST with a small JSON body, 0..1; the rest are GET
 * @param seed           seeds the key and method draws, so two runs send the same sequence
 * @param requestTimeout a request not answered within this counts as a timeout
 */
public record TrafficSettings(URI target, String path, double ratePerSecond, int maxConcurrency, Duration duration,
                              KeyDistribution keys, KeyPlacement keyPlacement, double postShare, long seed,
                              Duration requestTimeout) {
    public static final double MAX_RATE = 100_000;
    public static final int MAX_CONCURRENCY = 10_000;

    public TrafficSettings {
        if (target == null || !"http".equalsIgnoreCase(target.getScheme()) && !"https".equalsIgnoreCase(target.getScheme())
                || target.getHost() == null) {
            throw new IllegalArgumentException("target: must be an absolute http://host:port (got: " + target + ")");
        }
        path = path == null || path.isEmpty() ? "/" : path;
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("path: must start with / (got: " + path + ")");
        }
        if (!(ratePerSecond >= 0.1 && ratePerSecond <= MAX_RATE)) {
            throw new IllegalArgumentException("ratePerSecond: must be between 0.1 and " + (long) MAX_RATE
                    + " (got: " + ratePerSecond + ")");
        }
        if (maxConcurrency < 1 || maxConcurrency > MAX_CONCURRENCY) {
            throw new IllegalArgumentException("maxConcurrency: must be between 1 and " + MAX_CONCURRENCY
                    + " (got: " + maxConcurrency + ")");
        }
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration: must be above 0 (got: " + duration + ")");
        }
        if (keys == null) {
            throw new IllegalArgumentException("keys: required (got: null)");
        }
        keyPlacement = keyPlacement == null ? KeyPlacement.path() : keyPlacement;
        if (!(postShare >= 0 && postShare <= 1)) {
            throw new IllegalArgumentException("postShare: must be between 0 and 1 (got: " + postShare + ")");
        }
        requestTimeout = requestTimeout == null ? Duration.ofSeconds(10) : requestTimeout;
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout: must be above 0 (got: " + requestTimeout + ")");
        }
    }

    /** 50 req/s for 60 s, at most 64 in flight, Zipf(s=1) over 100 keys in the path, all GET, seed 1. */
    public static TrafficSettings defaults(URI target) {
        return new TrafficSettings(target, "/", 50, 64, Duration.ofSeconds(60), new KeyDistribution.Zipf(100, 1.0),
                KeyPlacement.path(), 0, 1, Duration.ofSeconds(10));
    }

    public TrafficSettings withRate(double perSecond) {
        return new TrafficSettings(target, path, perSecond, maxConcurrency, duration, keys, keyPlacement, postShare,
                seed, requestTimeout);
    }

    public TrafficSettings withMaxConcurrency(int n) {
        return new TrafficSettings(target, path, ratePerSecond, n, duration, keys, keyPlacement, postShare, seed,
                requestTimeout);
    }

    public TrafficSettings withDuration(Duration d) {
        return new TrafficSettings(target, path, ratePerSecond, maxConcurrency, d, keys, keyPlacement, postShare, seed,
                requestTimeout);
    }

    public TrafficSettings withKeys(KeyDistribution k) {
        return new TrafficSettings(target, path, ratePerSecond, maxConcurrency, duration, k, keyPlacement, postShare,
                seed, requestTimeout);
    }

    public TrafficSettings withKeyPlacement(KeyPlacement p) {
        return new TrafficSettings(target, path, ratePerSecond, maxConcurrency, duration, keys, p, postShare, seed,
                requestTimeout);
    }

    public TrafficSettings withPostShare(double share) {
        return new TrafficSettings(target, path, ratePerSecond, maxConcurrency, duration, keys, keyPlacement, share,
                seed, requestTimeout);
    }

    public TrafficSettings withSeed(long s) {
        return new TrafficSettings(target, path, ratePerSecond, maxConcurrency, duration, keys, keyPlacement, postShare,
                s, requestTimeout);
    }

    public TrafficSettings withPath(String p) {
        return new TrafficSettings(target, p, ratePerSecond, maxConcurrency, duration, keys, keyPlacement, postShare,
                seed, requestTimeout);
    }

    public TrafficSettings withRequestTimeout(Duration d) {
        return new TrafficSettings(target, path, ratePerSecond, maxConcurrency, duration, keys, keyPlacement, postShare,
                seed, d);
    }

    /**
     * Where the key goes, matching a strategy's {@code key} (docs/REFERENCE.md §2.2): {@code HEADER} name for
     * {@code header:NAME}, {@code COOKIE} name for {@code cookie:NAME}, {@code QUERY} name for
     * {@code query:NAME}, {@code PATH} ({@code /k/<key>}) for {@code path}.
     */
    public record KeyPlacement(Kind kind, String name) {
        public enum Kind { HEADER, COOKIE, QUERY, PATH }

        public KeyPlacement {
            if (kind == null) {
                throw new IllegalArgumentException("keyPlacement.kind: must be one of HEADER, COOKIE, QUERY, PATH (got: null)");
            }
            if (kind == Kind.PATH) {
                name = null;
            } else if (name == null || name.isBlank() || !name.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("keyPlacement.name: must be a token of [A-Za-z0-9._-] for "
                        + kind.name().toLowerCase(Locale.ROOT) + " (got: " + name + ")");
            }
        }

        public static KeyPlacement header(String name) {
            return new KeyPlacement(Kind.HEADER, name);
        }

        public static KeyPlacement cookie(String name) {
            return new KeyPlacement(Kind.COOKIE, name);
        }

        public static KeyPlacement query(String name) {
            return new KeyPlacement(Kind.QUERY, name);
        }

        public static KeyPlacement path() {
            return new KeyPlacement(Kind.PATH, null);
        }

        /**
         * Parses a strategy key ({@code path}, {@code header:NAME}, {@code cookie:NAME}, {@code query:NAME}) into
         * the placement that feeds it; {@code ip} and null give {@link #path()} (the client IP cannot be chosen).
         */
        public static KeyPlacement forStrategyKey(String key) {
            if (key == null || key.equals("ip") || key.equals("path")) {
                return path();
            }
            int colon = key.indexOf(':');
            String prefix = colon < 0 ? key : key.substring(0, colon);
            String name = colon < 0 ? null : key.substring(colon + 1);
            return switch (prefix) {
                case "header" -> header(name);
                case "cookie" -> cookie(name);
                case "query" -> query(name);
                default -> throw new IllegalArgumentException(
                        "key: must be ip, path, header:NAME, cookie:NAME or query:NAME (got: " + key + ")");
            };
        }

        /** The path and query to request for this key, given the configured path. */
        public String pathFor(String basePath, String key) {
            String k = URLEncoder.encode(key, StandardCharsets.UTF_8);
            return switch (kind) {
                case PATH -> "/k/" + k;
                case QUERY -> basePath + (basePath.contains("?") ? "&" : "?") + name + "=" + k;
                default -> basePath;
            };
        }

        /** The header to add for this key ({@code name: value}), or null when the key is in the URL. */
        public String[] headerFor(String key) {
            return switch (kind) {
                case HEADER -> new String[] {name, key};
                case COOKIE -> new String[] {"Cookie", name + "=" + key};
                default -> null;
            };
        }

        /** The strategy {@code key} that reads this placement. */
        public String strategyKey() {
            return switch (kind) {
                case PATH -> "path";
                case HEADER -> "header:" + name;
                case COOKIE -> "cookie:" + name;
                case QUERY -> "query:" + name;
            };
        }
    }
}
