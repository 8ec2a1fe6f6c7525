package dev.fulcrum.spi;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One setting a plugin strategy takes besides {@code type}, described as data: Fulcrum binds it by its {@link Kind},
 * checks it against its bounds (no plugin code runs to check a config), fills its default, and shows it in the
 * Strategy tab with its label, hint and phrase. The kinds are the built-in strategies' kinds.
 *
 * <p>Example: {@code Option.integer("spread", 1, 1, 100, "Spread", "backends sharing the cheapest cost",
 * "%s backends share the load")}: absent from a config it is 1; {@code "spread": 0} is refused with
 * {@code strategy.spread: must be between 1 and 100 (got: 0)}.
 */
public final class Option {

    /** What JSON value a setting takes, and the Java type {@link Settings} hands it over as. */
    public enum Kind {
        /** a whole number that fits an int ({@link Settings#integer}) */
        INTEGER,
        /** a whole number that fits a long, e.g. a duration in ms ({@link Settings#longValue}) */
        LONG,
        /** any number ({@link Settings#number}) */
        NUMBER,
        /** the request part hashed: ip, path, header:NAME, cookie:NAME, query:NAME ({@link Settings#hashKey}) */
        HASH_KEY,
        /** an object from names to numbers, e.g. {@code {"cpu": 0.5}} ({@link Settings#numbers}) */
        NUMBER_MAP
    }

    private final String name;
    private final Kind kind;
    private final Object defaultValue;
    private final double min;
    private final double max;
    private final String label;
    private final String hint;
    private final String phrase;

    private Option(String name, Kind kind, Object defaultValue, double min, double max, String label, String hint,
                   String phrase) {
        this.name = name;
        this.kind = kind;
        this.defaultValue = defaultValue;
        this.min = min;
        this.max = max;
        this.label = label;
        this.hint = hint;
        this.phrase = phrase;
    }

    /**
     * A whole number from {@code min} to {@code max}.
     *
     * @param phrase the setting in words with {@code %s} for the value, e.g. {@code %s backends share the load}
     */
    public static Option integer(String name, int defaultValue, int min, int max, String label, String hint,
                                 String phrase) {
        return new Option(name, Kind.INTEGER, defaultValue, min, max, label, hint, phrase);
    }

    /** A whole number that may exceed an int (a duration in milliseconds), from {@code min} to {@code max}. */
    public static Option longValue(String name, long defaultValue, long min, long max, String label, String hint,
                                   String phrase) {
        return new Option(name, Kind.LONG, defaultValue, min, max, label, hint, phrase);
    }

    /** Any number from {@code min} to {@code max}; a null default means "off" until set. */
    public static Option number(String name, Double defaultValue, double min, double max, String label, String hint,
                                String phrase) {
        return new Option(name, Kind.NUMBER, defaultValue, min, max, label, hint, phrase);
    }

    /** The request part to hash, called {@code key} as the built-in hashing strategies call it; {@code ip} unless set. */
    public static Option hashKey() {
        return new Option("key", Kind.HASH_KEY, "ip", 0, 0, "Key", "ip, path, header:NAME, cookie:NAME, query:NAME",
                null);
    }

    /** An object from names to numbers, each from {@code min} to {@code max}; {@code defaultValue} may be null. */
    public static Option numbers(String name, Map<String, Double> defaultValue, double min, double max, String label,
                                 String hint, String phrase) {
        Map<String, Double> d = defaultValue == null ? null
                : Collections.unmodifiableMap(new LinkedHashMap<>(defaultValue));
        return new Option(name, Kind.NUMBER_MAP, d, min, max, label, hint, phrase);
    }

    /** The JSON field, e.g. {@code spread}. */
    public String name() {
        return name;
    }

    public Kind kind() {
        return kind;
    }

    /** The value when a config leaves it out ({@code Integer}, {@code Long}, {@code Double}, {@code String} or a map), or null. */
    public Object defaultValue() {
        return defaultValue;
    }

    /** The least value accepted (each value's, for {@link Kind#NUMBER_MAP}); unused for {@link Kind#HASH_KEY}. */
    public double min() {
        return min;
    }

    /** The greatest value accepted (each value's, for {@link Kind#NUMBER_MAP}); unused for {@link Kind#HASH_KEY}. */
    public double max() {
        return max;
    }

    /** The Strategy form's label, e.g. {@code Spread}. */
    public String label() {
        return label;
    }

    /** A few words beside the form's field. */
    public String hint() {
        return hint;
    }

    /** The setting in words with {@code %s} for the value; null for {@link Kind#HASH_KEY}. */
    public String phrase() {
        return phrase;
    }

    @Override
    public String toString() {
        return name + " (" + kind + ")";
    }
}
