package dev.fulcrum.rules;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Every limit and format Fulcrum puts on what it is given, written once. The config file
 * ({@code ConfigValidator}, so also {@code --check-config} and {@code PUT /api/config}), the admin API's commands,
 * the engine's own commands, the simulator, the demo backends and the window's forms all ask here, so a value one
 * of them accepts the others accept too; {@code LimitsAgreementTest} holds the three outer ones to each bound with
 * the value just inside and just outside it.
 *
 * <p>Each check returns what is wrong, worded to follow the field's name ({@code "must be between 0 and 1000"}), or
 * null when the value is fine; the caller adds the field's path in front and {@code (got: value)} behind, as
 * docs/REFERENCE.md §1 shows: {@code backends[1].weight: must be between 0 and 1000 (got: -3)}.
 */
public final class Limits {
    /** Backend, demo backend and pool names (docs/REFERENCE.md §2.1). */
    public static final Pattern ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    public static final String ID_RULE = "must be 1-64 characters of A-Z a-z 0-9 . _ -";
    /** A backend's weight; 0 takes no new requests. */
    public static final Range WEIGHT = new Range(0, 1000);
    /** A TCP port; 0 picks a free one where Fulcrum listens. */
    public static final Range PORT = new Range(0, 65535);
    /**
     * The longest duration any {@code *Ms} field takes, about 24.8 days: the engine counts in nanoseconds, and a
     * larger value times 1,000,000 would wrap around.
     */
    public static final long MAX_MS = Integer.MAX_VALUE;
    public static final String MAX_MS_RULE = "must be at most " + MAX_MS + " (about 24.8 days)";

    /** Ring points per unit of weight (consistent-hash). */
    public static final Range VIRTUAL_NODES = new Range(1, 10_000);
    /** Random draws per pick (power-of-two). */
    public static final Range CHOICES = new Range(2, 100);
    /** Maglev table slots, and prime: a guess at what stays cheap to rebuild on every membership change. */
    public static final Range TABLE_SIZE = new Range(3, 1_000_003);
    /** The metrics an adaptive score weighs. */
    public static final List<String> ADAPTIVE_METRICS = List.of("cpu", "latency", "inflight");
    public static final String KEY_RULE = "must be one of ip, path, header:NAME, cookie:NAME, query:NAME";

    /** Completed requests the proxy keeps per I/O thread for the window and {@code /api/requests}; 0 keeps none. */
    public static final Range RECENT_REQUESTS = new Range(0, 65_536);
    /** A health check's interval and timeout: up to an hour. */
    public static final Range HEALTH_CHECK_MS = new Range(1, 3_600_000);
    /** How long a demo backend takes to answer. */
    public static final Range DEMO_LATENCY_MS = new Range(0, 60_000);
    /** How often a discovery source is asked again. */
    public static final Range DISCOVERY_REFRESH_MS = new Range(100, 3_600_000);
    /** A label's name (docs/REFERENCE.md §2.1 {@code labels}): short, lower case, usable as a name in a score. */
    public static final Pattern LABEL_NAME = Pattern.compile("[a-z][a-z0-9_]{0,31}");
    public static final String LABEL_NAME_RULE = "must match [a-z][a-z0-9_]{0,31}";
    /** Labels on one backend: enough to describe it, few enough to show on its card. */
    public static final int MAX_LABELS = 16;
    /** Characters of one label's value. */
    public static final int MAX_LABEL_CHARS = 64;
    public static final String LABEL_VALUE_RULE = "must be a string of at most " + MAX_LABEL_CHARS + " characters";
    /**
     * How long a plugin strategy's picks may take on average over a second before its pool's fallback takes over
     * (docs/PLUGINS.md). A second a pick would already have stalled the proxy; the upper bound says so.
     */
    public static final Range PLUGIN_BUDGET_MS = new Range(1, 1000);
    /** A split arm's weight (docs/REFERENCE.md §2.1 {@code routes[i].split}); 0 takes no new user. */
    public static final Range SPLIT_WEIGHT = new Range(0, 1000);
    /** A route class's in-flight ceiling per backend ({@code routes[i].maxInFlightPerBackend}). */
    public static final Range CLASS_CEILING = new Range(1, 100_000);
    /** The largest body a mirror copies ({@code routes[i].mirror.maxBodyBytes}): 16 MiB, held in memory per copy. */
    public static final Range MIRROR_BODY_BYTES = new Range(0, 16 * 1024 * 1024);
    /** How long a canary guard's bound must be broken before it rolls back ({@code routes[i].guard.forMs}). */
    public static final Range GUARD_FOR_MS = new Range(1000, 3_600_000);
    /** Requests each arm needs in the last minute before a guard judges ({@code routes[i].guard.minRequests}). */
    public static final Range GUARD_MIN_REQUESTS = new Range(1, 1_000_000);
    /** A traffic class's name ({@code routes[i].class}): a short word, shown and used as a metrics label. */
    public static final Pattern ROUTE_CLASS = Pattern.compile("[a-z][a-z0-9_-]{0,31}");
    public static final String ROUTE_CLASS_RULE = "must match [a-z][a-z0-9_-]{0,31}";

    /** RFC 9110 token characters: header and cookie names. */
    public static final Pattern TOKEN = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    private Limits() {
    }

    public static String id(String id) {
        if (id == null) {
            return "required";
        }
        return ID.matcher(id).matches() ? null : ID_RULE;
    }

    public static String weight(long weight) {
        return WEIGHT.problem(weight);
    }

    public static String splitWeightProblem(long weight) {
        return SPLIT_WEIGHT.problem(weight);
    }

    /** A backend's in-flight cap: at least 1, or null for none. */
    public static String maxInFlight(Integer cap) {
        return cap == null || cap >= 1 ? null : "must be at least 1, or null for no cap";
    }

    /** A backend address: an absolute {@code http://host:port} with no path, query or fragment. */
    public static String url(String url) {
        if (url == null) {
            return "required";
        }
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            return "must be an absolute http://host:port URL";
        }
        if (!"http".equalsIgnoreCase(u.getScheme())) {
            return "must be an absolute http://host:port URL (scheme http)";
        }
        if (u.getHost() == null || u.getRawUserInfo() != null) {
            return "must be an absolute http://host:port URL with a host";
        }
        if (u.getPort() < 1 || u.getPort() > 65535) {
            return "must be an absolute http://host:port URL with a port between 1 and 65535";
        }
        if (!u.getRawPath().isEmpty() || u.getRawQuery() != null || u.getRawFragment() != null) {
            return "must be http://host:port with no path, query or fragment (not even a trailing /)";
        }
        return null;
    }

    /** A hashing key (docs/REFERENCE.md §2.2): {@code ip}, {@code path}, or a header, cookie or query name. */
    public static String hashKey(String key) {
        if (key == null || key.equals("ip") || key.equals("path")) {
            return null;
        }
        for (String kind : List.of("header:", "cookie:", "query:")) {
            if (key.startsWith(kind)) {
                String name = key.substring(kind.length());
                boolean ok = kind.equals("query:") ? !name.isEmpty() && name.chars().noneMatch(ch -> ch <= ' ')
                        : TOKEN.matcher(name).matches();
                return ok ? null : KEY_RULE;
            }
        }
        return KEY_RULE;
    }

    /**
     * What is wrong with a backend's labels, each with its field relative to the backend: {@code labels} for too many
     * ({@code at most 16 labels}, the count as the value), {@code labels.NAME} for a bad name (the name as the value)
     * or a bad value (the value). Empty when they are fine; null means none.
     *
     * <p>Example: {@code {"Zone": "b"}} gives {@code labels.Zone: must match [a-z][a-z0-9_]{0,31} (got: Zone)}.
     */
    public static List<Violation> labels(Map<String, String> labels) {
        List<Violation> out = new ArrayList<>();
        if (labels == null) {
            return out;
        }
        if (labels.size() > MAX_LABELS) {
            out.add(new Violation("labels", "at most " + MAX_LABELS + " labels", labels.size()));
        }
        for (Map.Entry<String, String> e : labels.entrySet()) {
            String name = e.getKey();
            String field = "labels." + name;
            if (name == null || !LABEL_NAME.matcher(name).matches()) {
                out.add(new Violation(field, LABEL_NAME_RULE, name));
            } else if (labelValue(e.getValue()) != null) {
                out.add(new Violation(field, LABEL_VALUE_RULE, e.getValue()));
            }
        }
        return out;
    }

    /** One label's value: a string of at most {@value #MAX_LABEL_CHARS} characters (code points), empty allowed. */
    public static String labelValue(String value) {
        return value != null && value.codePointCount(0, value.length()) <= MAX_LABEL_CHARS ? null : LABEL_VALUE_RULE;
    }

    /** {@code pluginBudgetMs}: see {@link #PLUGIN_BUDGET_MS}. */
    public static String pluginBudgetMs(long ms) {
        return PLUGIN_BUDGET_MS.problem(ms);
    }

    public static String virtualNodes(long n) {
        return VIRTUAL_NODES.problem(n);
    }

    public static String choices(long n) {
        return CHOICES.problem(n);
    }

    public static String tableSize(long n) {
        if (!TABLE_SIZE.contains(n)) {
            return "must be a prime between " + TABLE_SIZE.min() + " and " + TABLE_SIZE.max();
        }
        return isPrime(n) ? null : "must be prime (e.g. 65537)";
    }

    /** Bounded loads: greater than 1 (1.25 lets a backend take a quarter over the average), or null for off. */
    public static String balanceFactor(Double factor) {
        return factor == null || factor > 1 && Double.isFinite(factor) ? null
                : "must be greater than 1 (e.g. 1.25), or null for off";
    }

    /** One adaptive metric's weight: a finite number, 0 or more. */
    public static String metricWeight(Double w) {
        return w != null && w >= 0 && Double.isFinite(w) ? null : "must be a number >= 0";
    }

    /** A duration that must be above 0 ({@code readMs}, {@code openMs}, {@code decayMs} ...). */
    public static String positiveMs(long ms) {
        if (ms <= 0) {
            return "must be greater than 0";
        }
        return ms > MAX_MS ? MAX_MS_RULE : null;
    }

    /** A share from 0 to 1 ({@code coldStartShare}). */
    public static String share(double d) {
        return d >= 0 && d <= 1 ? null : "must be between 0 and 1";
    }

    /** A duration that may be 0 ({@code slowStartMs}, {@code drainTimeoutMs}). */
    public static String nonNegativeMs(long ms) {
        if (ms < 0) {
            return "must be at least 0";
        }
        return ms > MAX_MS ? MAX_MS_RULE : null;
    }

    public static String demoLatencyMs(double ms) {
        return ms >= DEMO_LATENCY_MS.min() && ms <= DEMO_LATENCY_MS.max() ? null
                : "must be between " + DEMO_LATENCY_MS.min() + " and " + DEMO_LATENCY_MS.max();
    }

    /** A share of requests: 0 to 1. */
    public static String rate(double r) {
        return r >= 0 && r <= 1 ? null : "must be between 0 and 1";
    }

    /**
     * A name a server certificate may carry: a host name (labels of letters, digits and {@code -}, each 1-63
     * characters, 253 in all), one with a leading {@code *.} for a wildcard, or an IPv4 or IPv6 address.
     */
    public static String certificateName(String name) {
        String rule = "must be a host name, *.name or IP address";
        if (name == null || name.isEmpty()) {
            return rule;
        }
        if (name.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            for (String part : name.split("\\.")) {
                if (Integer.parseInt(part) > 255) {
                    return rule;
                }
            }
            return null;
        }
        if (name.contains(":")) {
            return name.matches("[0-9A-Fa-f:.]+") && name.chars().filter(c -> c == ':').count() >= 2 ? null : rule;
        }
        String host = name.startsWith("*.") ? name.substring(2) : name;
        if (host.length() > 253) {
            return rule;
        }
        for (String label : host.split("\\.", -1)) {
            if (!label.matches("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?")) {
                return rule;
            }
        }
        return null;
    }

    public static String port(long port) {
        return PORT.problem(port);
    }

    public static boolean isPrime(long n) {
        if (n < 2) {
            return false;
        }
        if (n % 2 == 0) {
            return n == 2;
        }
        for (long d = 3; d * d <= n; d += 2) {
            if (n % d == 0) {
                return false;
            }
        }
        return true;
    }
}
