package dev.fulcrum.engine.routing;

import java.util.regex.Pattern;

/**
 * One condition on a request value (a header, a cookie, a query parameter, the host): the value equals a text, starts
 * with one, contains a match of a regular expression (found anywhere unless anchored: {@code ^stag}), is present, or is
 * absent. A value that is absent matches only {@code absent}. Immutable; {@link #test} allocates nothing (a regex
 * aside).
 */
public final class ValueMatcher {
    public enum Kind { EXACT, PREFIX, REGEX, PRESENT, ABSENT }

    private final Kind kind;
    private final String text;
    private final Pattern regex;
    private final boolean ignoreCase;

    private ValueMatcher(Kind kind, String text, boolean ignoreCase) {
        this.kind = kind;
        this.text = text;
        this.ignoreCase = ignoreCase;
        this.regex = kind == Kind.REGEX ? Pattern.compile(text) : null;
    }

    public static ValueMatcher exact(String value) {
        return new ValueMatcher(Kind.EXACT, value, false);
    }

    public static ValueMatcher prefix(String value) {
        return new ValueMatcher(Kind.PREFIX, value, false);
    }

    /** @throws java.util.regex.PatternSyntaxException when {@code expression} is no regular expression */
    public static ValueMatcher regex(String expression) {
        return new ValueMatcher(Kind.REGEX, expression, false);
    }

    public static ValueMatcher present() {
        return new ValueMatcher(Kind.PRESENT, null, false);
    }

    public static ValueMatcher absent() {
        return new ValueMatcher(Kind.ABSENT, null, false);
    }

    /** The same condition compared without regard to case (a host name). */
    public ValueMatcher ignoringCase() {
        return kind == Kind.EXACT || kind == Kind.PREFIX ? new ValueMatcher(kind, text, true)
                : kind == Kind.REGEX ? new ValueMatcher(kind, "(?i)" + text, false) : this;
    }

    public Kind kind() {
        return kind;
    }

    /** The text compared against (a value, a prefix, an expression), or null for present and absent. */
    public String text() {
        return text;
    }

    /** True when {@code value} (null: absent) meets the condition. */
    public boolean test(String value) {
        switch (kind) {
            case ABSENT:
                return value == null;
            case PRESENT:
                return value != null;
            default:
                break;
        }
        if (value == null) {
            return false;
        }
        switch (kind) {
            case EXACT:
                return ignoreCase ? value.equalsIgnoreCase(text) : value.equals(text);
            case PREFIX:
                return value.regionMatches(ignoreCase, 0, text, 0, text.length());
            default:
                return regex.matcher(value).find();
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ValueMatcher m && m.kind == kind && m.ignoreCase == ignoreCase
                && java.util.Objects.equals(m.text, text);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + (text == null ? 0 : text.hashCode());
    }

    @Override
    public String toString() {
        return kind == Kind.EXACT ? '"' + text + '"' : kind.name().toLowerCase() + (text == null ? "" : " " + text);
    }
}
