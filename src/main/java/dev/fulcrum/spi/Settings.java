package dev.fulcrum.spi;

import java.util.Map;

/**
 * The configured values of a plugin strategy's {@link Option}s, already checked against their bounds, with the
 * defaults filled in. Ask for an option the strategy declared, by the getter of its kind.
 */
public interface Settings {

    /** An {@link Option.Kind#INTEGER} setting. */
    int integer(String name);

    /** An {@link Option.Kind#LONG} setting. */
    long longValue(String name);

    /** A {@link Option.Kind#NUMBER} setting, or null when it is off (no default, not set). */
    Double number(String name);

    /** The {@link Option.Kind#HASH_KEY} setting: {@code ip}, {@code path}, {@code header:NAME} ... */
    String hashKey();

    /** A {@link Option.Kind#NUMBER_MAP} setting, or null when it is off; unmodifiable. */
    Map<String, Double> numbers(String name);
}
