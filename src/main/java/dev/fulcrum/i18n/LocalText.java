package dev.fulcrum.i18n;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A text written in several languages, as a lesson file gives it: a string (English only) or an object from a
 * language ({@code en}, {@code zh}, {@code pl}) to its text. English is always there; another language falls back
 * to it.
 */
public record LocalText(Map<String, String> byLanguage) {
    public LocalText {
        if (!byLanguage.containsKey("en")) {
            throw new IllegalArgumentException("a text needs its English version (en)");
        }
        byLanguage = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byLanguage));
    }

    /** English only. */
    public static LocalText of(String english) {
        return new LocalText(Map.of("en", english));
    }

    /** The text in {@code language}, or the English one. */
    public String in(String language) {
        return byLanguage.getOrDefault(language, byLanguage.get("en"));
    }

    /** The text in the window's language ({@link Texts#language()}). */
    public String text() {
        return in(Texts.language());
    }

    /** The English text: the command line and logs are English. */
    public String english() {
        return byLanguage.get("en");
    }

    @Override
    public String toString() {
        return english();
    }
}
