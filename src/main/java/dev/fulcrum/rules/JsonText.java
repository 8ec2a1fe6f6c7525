package dev.fulcrum.rules;

/**
 * A JSON string as Fulcrum writes it by hand (the access log, the proxy's own answers, a request's decision, the
 * result of {@code --compare}): quote, backslash, newline, return and tab as their short escapes, any other control
 * character as a backslash, {@code u} and four lowercase hex digits, everything else as it is.
 */
public final class JsonText {
    private JsonText() {
    }

    /** {@code s} as a JSON string, quotes included. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        appendEscaped(b, s);
        return b.append('"').toString();
    }

    /**
     * Appends {@code s} as the inside of a JSON string. It allocates nothing of its own (the access log calls it on
     * the proxy's I/O threads), and a string with nothing to escape is appended whole.
     */
    public static void appendEscaped(StringBuilder b, String s) {
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c < 0x20 || c == '"' || c == '\\') {
                break;
            }
            i++;
        }
        b.append(s, 0, i);
        for (; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
    }
}
