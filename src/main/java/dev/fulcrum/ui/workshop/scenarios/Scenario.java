package dev.fulcrum.ui.workshop.scenarios;

import dev.fulcrum.i18n.Texts;
import java.util.List;

/**
 * One runnable sample config shipped in {@code samples/} (packaged as the classpath resource
 * {@code /samples/NAME.json}) and the one thing a trainer shows with it.
 *
 * @param name the file's base name, e.g. {@code hashing}
 */
public record Scenario(String name) {
    /** The eight samples, in the order a workshop walks through them. */
    public static final List<Scenario> ALL = List.of(new Scenario("workshop"), new Scenario("hashing"),
            new Scenario("bounded-load"), new Scenario("breaker-demo"), new Scenario("slow-start"),
            new Scenario("slow-backend"), new Scenario("sticky"), new Scenario("local-dev"));

    /** The one line for the scenarios list, in the window's language ({@code scenarios.what.NAME}). */
    public String whatToShow() {
        String key = "scenarios.what." + name; // a key per sample in each bundle (WorkshopLanguageTest reads each)
        return Texts.t(key);
    }

    /** The classpath resource name handed to the window, e.g. {@code samples/hashing.json}. */
    public String resource() {
        return "samples/" + name + ".json";
    }
}
