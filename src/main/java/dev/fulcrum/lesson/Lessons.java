package dev.fulcrum.lesson;

import java.util.List;

/**
 * The lessons shipped in {@code samples/lessons/} (packaged as classpath resources), in the order a workshop walks
 * through them. A test holds this list to the folder, and the build checks every one ({@code LessonsTest}).
 */
public final class Lessons {
    /** The base names of the shipped lesson files. */
    public static final List<String> SHIPPED = List.of(
            "round-robin-and-smooth-wrr",
            "least-requests-and-power-of-two",
            "consistent-hashing",
            "bounded-loads",
            "maglev-and-the-ring",
            "circuit-breaker",
            "retries-and-idempotency",
            "slow-start",
            "ip-hash-behind-nat",
            "adaptive-and-fastest-response",
            "design-your-own-strategy",
            "try-it-on-recorded-traffic",
            "a-canary-at-5-percent",
            "mirror-before-you-switch",
            "vip-and-batch-on-one-pool");

    private Lessons() {
    }

    /** The classpath resource of a shipped lesson, e.g. {@code samples/lessons/slow-start.json}. */
    public static String resource(String name) {
        return "samples/lessons/" + name + ".json";
    }

    /** Every shipped lesson, read and checked (a broken one throws {@link LessonException}). */
    public static List<Lesson> shipped() {
        return SHIPPED.stream().map(n -> LessonReader.readResource(resource(n))).toList();
    }
}
