package dev.fulcrum.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A JSON syntax error as one problem line a person can act on:
 * {@code config error: backends[0].id: invalid JSON at line 2, column 24: JSON strings take double quotes (got: ')}.
 *
 * <p>Jackson's own text is written for programmers ({@code Unexpected character (''' (code 39)): expected a valid
 * value (JSON String, Number, Array, Object or token 'null', 'true' or 'false')}, Java feature names, a second
 * {@code at [Source: ...]} line). Here the path comes from where the parser was, the reason from a short table of the
 * messages Jackson's JSON parser gives, and the value is the offending token or character, not the whole line.
 */
final class JsonSyntax {
    /** The token or character Jackson quotes at the start of its message, when it does. */
    private static final Pattern QUOTED = Pattern.compile("^(?:Unexpected character \\('(.)' \\(code \\d+\\)\\)"
            + "|Unrecognized token '([^']*)'|Non-standard token '([^']*)'|Unexpected close marker '(.)'"
            + "|Duplicate field '([^']*)'|Unrecognized character escape '(.)')");
    private static final Pattern CONTROL = Pattern.compile("CTRL-CHAR, code (\\d+)");
    private static final Pattern EXPECTED_CLOSE = Pattern.compile("expected '(.)'");

    private JsonSyntax() {
    }

    static ConfigProblem problem(JsonProcessingException e, String json, String root) {
        String raw = String.valueOf(e.getOriginalMessage());
        Matcher quoted = QUOTED.matcher(raw);
        String token = null;
        if (quoted.find()) {
            for (int g = 1; g <= quoted.groupCount() && token == null; g++) {
                token = quoted.group(g);
            }
        }
        JsonLocation at = e.getLocation();
        int line = at == null ? -1 : at.getLineNr();
        int column = at == null ? -1 : at.getColumnNr();
        Matcher control = CONTROL.matcher(raw);
        String got;
        if (raw.startsWith("Unexpected end-of-input")) {
            got = "end of input";
        } else if (raw.startsWith("Duplicate field")) {
            got = "\"" + token + "\"";
        } else if (control.find()) {
            got = String.format("U+%04X", Integer.parseInt(control.group(1)));
        } else if (token != null) {
            got = token;
        } else {
            got = wordAt(json, line, column);
        }
        String where = line > 0 ? " at line " + line + ", column " + column : "";
        String path = path(e, root, raw.startsWith("Duplicate field") ? token : null, aboutValue(raw));
        return new ConfigProblem(path, "invalid JSON" + where + ": " + reason(raw, token), ConfigPaths.cut(got));
    }

    /** What is wrong in a few plain words; Jackson's text (first line, Java-isms cut) for anything not listed. */
    private static String reason(String raw, String token) {
        if (raw.startsWith("Unexpected character") && "'".equals(token)) {
            return "JSON strings take double quotes";
        }
        if (raw.contains("maybe a (non-standard) comment")) {
            return "comments are not allowed in JSON";
        }
        if (raw.contains("double-quote to start field name")) {
            return "expected a field name in double quotes";
        }
        if (raw.contains("comma to separate Object entries")) {
            return "expected , or } after a value";
        }
        if (raw.contains("comma to separate Array entries")) {
            return "expected , or ] after a value";
        }
        if (raw.contains("colon to separate field name and value")) {
            return "expected : after a field name";
        }
        if (raw.contains("expected a valid value") || raw.startsWith("Unrecognized token")
                || raw.startsWith("Non-standard token")) {
            return "expected a value (a string in double quotes, a number, true, false, null, an object or an array)";
        }
        if (raw.startsWith("Unexpected end-of-input")) {
            return "the document ends before every {, [ and \" is closed";
        }
        if (raw.startsWith("Unexpected close marker")) {
            Matcher m = EXPECTED_CLOSE.matcher(raw);
            return m.find() ? "expected " + m.group(1) + " to close what is open here" : "nothing open to close here";
        }
        if (raw.startsWith("Duplicate field")) {
            return "field given twice";
        }
        if (raw.startsWith("Trailing token")) {
            return "more content after the end of the document";
        }
        if (raw.startsWith("Invalid numeric value") || raw.startsWith("Unexpected character")
                && raw.contains("in numeric value")) {
            return "not a valid JSON number";
        }
        if (raw.contains("CTRL-CHAR")) {
            return "a line break or control character inside a string must be written as an escape (\\n, \\t, ...)";
        }
        if (raw.startsWith("Unrecognized character escape")) {
            return "not a valid escape in a string";
        }
        String first = raw.lines().findFirst().orElse("syntax error");
        return first.replaceAll(" \\(code \\d+\\)", "").replaceAll("[:;] enable `.*", "").strip();
    }

    /** Whether the error is in a field's value (not in the punctuation between fields). */
    private static boolean aboutValue(String raw) {
        return raw.contains("expected a valid value") || raw.startsWith("Unrecognized token")
                || raw.startsWith("Non-standard token") || raw.startsWith("Invalid numeric value")
                || raw.contains("in numeric value") || raw.contains("CTRL-CHAR")
                || raw.startsWith("Unrecognized character escape") || raw.contains("colon to separate");
    }

    /**
     * The JSON path where the parser stopped: the object or array it was in, plus the field whose value was being
     * read (or the field given twice). {@code root} is the document itself.
     */
    private static String path(JsonProcessingException e, String root, String duplicate, boolean aboutValue) {
        if (!(e.getProcessor() instanceof JsonParser parser)) {
            return root;
        }
        List<JsonStreamContext> chain = new ArrayList<>();
        for (JsonStreamContext c = parser.getParsingContext(); c != null && !c.inRoot(); c = c.getParent()) {
            chain.add(0, c);
        }
        String path = root;
        for (int i = 0; i < chain.size(); i++) {
            JsonStreamContext c = chain.get(i);
            boolean innermost = i == chain.size() - 1;
            if (c.inArray()) {
                // the element being read: its index is counted before the value is
                if (c.getCurrentIndex() >= 0) {
                    path = ConfigPaths.index(path, c.getCurrentIndex());
                }
            } else if (innermost) {
                // the current name is the field being read for a bad value, but the previous field when a name or a
                // comma was expected: then the object itself is the place (the parser has no token left to tell,
                // it is closed by the time the error is seen, so the kind of error decides)
                String name = duplicate != null ? duplicate : aboutValue ? c.getCurrentName() : null;
                path = name == null ? path : ConfigPaths.child(path, name);
            } else {
                path = ConfigPaths.child(path, c.getCurrentName());
            }
        }
        return path;
    }

    /** The word (or the single character) at a 1-based line and column, for messages that do not quote it. */
    private static String wordAt(String json, int line, int column) {
        if (line <= 0) {
            return "unknown position";
        }
        String text = json.lines().skip(line - 1L).findFirst().orElse("");
        int i = Math.min(Math.max(column - 1, 0), text.length());
        if (i >= text.length()) {
            return json.substring(Math.min(json.length(), offset(json, line) + i)).isBlank() ? "end of input"
                    : "end of line";
        }
        if (!isWord(text.charAt(i))) {
            return String.valueOf(text.charAt(i));
        }
        int from = i;
        int to = i;
        while (from > 0 && isWord(text.charAt(from - 1))) {
            from--;
        }
        while (to < text.length() && isWord(text.charAt(to))) {
            to++;
        }
        return text.substring(from, to);
    }

    private static int offset(String json, int line) {
        int at = 0;
        for (int l = 1; l < line && at >= 0; l++) {
            at = json.indexOf('\n', at) + 1;
            if (at == 0) {
                return json.length();
            }
        }
        return at;
    }

    private static boolean isWord(char c) {
        return Character.isLetterOrDigit(c) || c == '.' || c == '-' || c == '+' || c == '_';
    }
}
