package dev.fulcrum.ui.workshop.scenarios;

import java.util.List;

/**
 * One runnable sample config shipped in {@code samples/} (packaged as the classpath resource
 * {@code /samples/NAME.json}) and the one thing a trainer shows with it.
 *
 * @param name       the file's base name, e.g. {@code hashing}
 * @param whatToShow one line for the scenarios list
 */
public record Scenario(String name, String whatToShow) {
    /** The eight samples, in the order a workshop walks through them. */
    public static final List<Scenario> ALL = List.of(
            new Scenario("workshop", "The default: consistent hashing on the path over three weighted demo backends."),
            new Scenario("hashing", "Eight nodes on a ring: add or remove one and watch only about 1/8 of the keys move."),
            new Scenario("bounded-load", "One hot X-User key: slide the balance factor and watch its overflow spread."),
            new Scenario("breaker-demo", "A backend failing 60%: its breaker opens, waits 5 s, probes half-open and heals."),
            new Scenario("slow-start", "Drain and re-enable a backend: its share ramps up over 20 s instead of at once."),
            new Scenario("slow-backend", "One backend 300 ms slow: round robin's p99 against least-requests and fastest-response."),
            new Scenario("sticky", "Sticky cookie: one client stays on its backend while the others rotate."),
            new Scenario("local-dev", "Two real dev servers on :3000 and :3001 behind /api, no demo backends."));

    /** The classpath resource name handed to the window, e.g. {@code samples/hashing.json}. */
    public String resource() {
        return "samples/" + name + ".json";
    }
}
