package dev.fulcrum.engine.strategy;

import dev.fulcrum.rules.Violation;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * One setting a strategy takes besides {@code type}, described once: the config binder reads it by its
 * {@link Kind}, {@link Strategies#violations} checks it with {@link #check}, the window's Strategy form shows a
 * field labelled {@link #label} and words the setting with {@link #phrase}.
 *
 * <p>Example: consistent hashing's ring size is
 * {@code StrategyOption.integer("virtualNodes", 160, Limits::virtualNodes, "Virtual nodes",
 * "ring points per backend (more = more even)", "%s virtual nodes per backend")}: absent from a config it is 160;
 * {@code 0} is refused with
 * {@code virtualNodes: must be between 1 and 10000 (got: 0)}; the window describes 200 as
 * "200 virtual nodes per backend".
 *
 * @param name         the JSON field, e.g. {@code virtualNodes}
 * @param kind         what JSON value it takes
 * @param defaultValue the value when it is left out (of the kind's Java type), or null for "off"
 * @param check        every problem with a (non-null) value, each naming the field ({@code virtualNodes}, or
 *                     {@code weights.cpu} inside a map), empty when it is valid; bounds come from {@code Limits}
 * @param label        the form's label, e.g. {@code Virtual nodes}
 * @param hint         a few words beside the form's field, e.g. {@code ring points per backend (more = more even)}
 * @param phrase       the setting in words with {@code %s} for the value, e.g. {@code %s virtual nodes per backend};
 *                     unused for {@link Kind#HASH_KEY}, which reads "on the path"
 * @param words        the words the setting takes: every value of a {@link Kind#CHOICE}, the words beside a number
 *                     of a {@link Kind#NUMBER_OR_WORD}; empty for the other kinds (the form offers them in a list)
 */
public record StrategyOption(String name, Kind kind, Object defaultValue, Function<Object, List<Violation>> check,
                             String label, String hint, String phrase, List<String> words) {

    public StrategyOption {
        words = words == null ? List.of() : List.copyOf(words);
    }

    /** An option that takes no words (every kind but {@link Kind#CHOICE} and {@link Kind#NUMBER_OR_WORD}). */
    public StrategyOption(String name, Kind kind, Object defaultValue, Function<Object, List<Violation>> check,
                          String label, String hint, String phrase) {
        this(name, kind, defaultValue, check, label, hint, phrase, List.of());
    }

    /** What JSON value an option takes, and the Java type it is bound to. */
    public enum Kind {
        /** a whole number that fits an int */
        INTEGER(Integer.class),
        /** a whole number that fits a long (durations in ms) */
        LONG(Long.class),
        /** any number */
        NUMBER(Double.class),
        /** the request part hashed: ip, path, header:NAME, cookie:NAME, query:NAME */
        HASH_KEY(String.class),
        /** a formula the strategy compiles, e.g. the score strategy's {@code 1 - cpu}; its check names the column */
        FORMULA(String.class),
        /** one of the option's {@link StrategyOption#words()}, e.g. {@code best} */
        CHOICE(String.class),
        /** a number, or one of the option's {@link StrategyOption#words()}: {@code "average"}, {@code 0.5} */
        NUMBER_OR_WORD(Object.class),
        /** an object from names to numbers, e.g. {@code {"cpu": 0.5, "latency": 0.3}} */
        NUMBER_MAP(new ParameterizedType() {
            @Override
            public Type[] getActualTypeArguments() {
                return new Type[] {String.class, Double.class};
            }

            @Override
            public Type getRawType() {
                return Map.class;
            }

            @Override
            public Type getOwnerType() {
                return null;
            }
        });

        private final Type javaType;

        Kind(Type javaType) {
            this.javaType = javaType;
        }

        /** The Java type a value of this kind is bound to (for the config binder). */
        public Type javaType() {
            return javaType;
        }
    }

    public static StrategyOption integer(String name, Integer dflt, Function<Long, String> check, String label,
                                         String hint, String phrase) {
        return new StrategyOption(name, Kind.INTEGER, dflt, v -> one(name, check.apply(((Number) v).longValue()), v),
                label, hint, phrase);
    }

    public static StrategyOption millis(String name, Long dflt, Function<Long, String> check, String label,
                                        String hint, String phrase) {
        return new StrategyOption(name, Kind.LONG, dflt, v -> one(name, check.apply(((Number) v).longValue()), v),
                label, hint, phrase);
    }

    public static StrategyOption number(String name, Double dflt, Function<Double, String> check, String label,
                                        String hint, String phrase) {
        return new StrategyOption(name, Kind.NUMBER, dflt, v -> one(name, check.apply(((Number) v).doubleValue()), v),
                label, hint, phrase);
    }

    /** The request part a hashing strategy hashes, {@code ip} unless set. */
    public static StrategyOption hashKey(Function<String, String> check) {
        return new StrategyOption("key", Kind.HASH_KEY, "ip", v -> one("key", check.apply((String) v), v), "Key",
                "ip, path, header:NAME, cookie:NAME, query:NAME", null);
    }

    /**
     * A formula, checked by {@code problem} (null when it compiles, else {@code what at column N}), e.g.
     * {@code unknown variable 'cpux' at column 5}; the value shows in quotes, as typed.
     */
    public static StrategyOption formula(String name, String dflt, Function<String, String> problem, String label,
                                         String hint, String phrase) {
        return new StrategyOption(name, Kind.FORMULA, dflt,
                v -> one(name, problem.apply((String) v), quoted((String) v)), label, hint, phrase);
    }

    /** One of {@code words}: anything else is {@code NAME: must be one of a, b, c (got: x)}. */
    public static StrategyOption choice(String name, String dflt, List<String> words, String label, String hint,
                                        String phrase) {
        return new StrategyOption(name, Kind.CHOICE, dflt,
                v -> one(name, words.contains(v) ? null : "must be one of " + String.join(", ", words), v),
                label, hint, phrase, words);
    }

    /**
     * A number checked by {@code check}, or one of {@code words}: anything else is
     * {@code NAME: must be a number or one of average, exclude (got: x)}.
     */
    public static StrategyOption numberOrWord(String name, Object dflt, List<String> words,
                                              Function<Double, String> check, String label, String hint,
                                              String phrase) {
        return new StrategyOption(name, Kind.NUMBER_OR_WORD, dflt, v -> one(name, v instanceof Number n
                ? check.apply(n.doubleValue())
                : words.contains(v) ? null : "must be a number or one of " + String.join(", ", words), v),
                label, hint, phrase, words);
    }

    /** A formula as an error shows it: in double quotes, cut to one readable line. */
    static String quoted(String formula) {
        String s = Violation.cut(formula);
        return "\"" + s + "\"";
    }

    /** Every problem with {@code value} (not null) as this option. */
    public List<Violation> violations(Object value) {
        return check.apply(value);
    }

    private static List<Violation> one(String field, String problem, Object value) {
        return problem == null ? List.of() : List.of(new Violation(field, problem, value));
    }
}
