package dev.fulcrum.lesson;

import dev.fulcrum.demo.TrafficSettings;
import dev.fulcrum.engine.sim.KeyDistribution;
import java.net.URI;
import java.time.Duration;

/**
 * A lesson's seeded traffic, as its {@code {"traffic": {...}}} action writes it: how fast, how long, which keys and
 * where they go, how many POSTs. The same plan always sends the same requests in the same order
 * ({@link dev.fulcrum.demo.TrafficGenerator}), so a lesson's shares come out the same on every run, within the noise
 * of real timing.
 *
 * <p>Example: {@code {"rate": 400, "durationMs": 1200, "keys": 200, "distribution": "hot", "hotShare": 0.5,
 * "keyIn": "header:X-User"}}: 480 GETs at 400 req/s, half of them with {@code X-User: k0}.
 *
 * @param rate           requests per second (open loop)
 * @param durationMs     how long the run sends
 * @param keys           distinct keys {@code k0 .. k<keys-1>}
 * @param distribution   {@code uniform}, {@code zipf} (s = 1) or {@code hot} (k0 takes {@code hotShare})
 * @param hotShare       the hot key's share, for {@code hot}
 * @param keyIn          where the key goes: {@code path} ({@code /k/<key>}), {@code header:NAME}, {@code cookie:NAME},
 *                       {@code query:NAME}
 * @param postShare      the share of requests sent as POST
 * @param seed           seeds the key and method draws
 * @param maxConcurrency requests in flight at most (a send due beyond it is skipped and counted)
 * @param classes        traffic classes by relative weight, e.g. {@code {"vip": 1, "batch": 9}}, or null: one class
 * @param classHeader    the header each request's class is sent in, e.g. {@code X-Tier}; required with classes
 */
record TrafficPlan(double rate, long durationMs, int keys, String distribution, double hotShare, String keyIn,
                   double postShare, long seed, int maxConcurrency, java.util.Map<String, Double> classes,
                   String classHeader) {
    static final TrafficPlan DEFAULTS = new TrafficPlan(200, 1000, 100, "uniform", 0.5, "path", 0, 1, 512, null,
            null);
    static final java.util.List<String> DISTRIBUTIONS = java.util.List.of("uniform", "zipf", "hot");

    KeyDistribution keyDistribution() {
        return switch (distribution) {
            case "zipf" -> new KeyDistribution.Zipf(keys, 1.0);
            case "hot" -> new KeyDistribution.HotKey(keys, hotShare);
            default -> new KeyDistribution.Uniform(keys);
        };
    }

    /** The traffic generator's settings for this plan, sent to the proxy at {@code proxy}. */
    TrafficSettings settings(URI proxy) {
        return TrafficSettings.defaults(proxy).withRate(rate).withDuration(Duration.ofMillis(durationMs))
                .withKeys(keyDistribution()).withKeyPlacement(TrafficSettings.KeyPlacement.forStrategyKey(keyIn))
                .withPostShare(postShare).withSeed(seed).withMaxConcurrency(maxConcurrency)
                .withRequestTimeout(Duration.ofSeconds(5));
    }

    /** The generator for this plan, its classes set (not started). */
    dev.fulcrum.demo.TrafficGenerator generator(TrafficSettings settings) {
        dev.fulcrum.demo.TrafficGenerator g = dev.fulcrum.demo.TrafficGenerator.create(settings, null);
        return classes == null ? g : g.classes(classHeader, classes);
    }

    String describe() {
        return Check.words("lesson.do.traffic", Bound.number(rate), Bound.number(durationMs / 1000.0), keys,
                distribution, keyIn) + (postShare > 0 ? Check.words("lesson.do.traffic.post",
                Math.round(postShare * 100)) : "") + (classes == null ? ""
                : Check.words("lesson.do.traffic.classes", classHeader, shares()));
    }

    /** Each class's share, e.g. {@code vip 10%, batch 90%}. */
    private String shares() {
        double total = classes.values().stream().mapToDouble(Double::doubleValue).sum();
        StringBuilder b = new StringBuilder();
        classes.forEach((c, w) -> b.append(b.length() == 0 ? "" : ", ").append(c).append(' ')
                .append(Bound.number(Math.round(w / total * 1000) / 10.0)).append('%'));
        return b.toString();
    }
}
