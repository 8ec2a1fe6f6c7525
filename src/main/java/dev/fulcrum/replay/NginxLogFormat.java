package dev.fulcrum.replay;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An nginx {@code log_format} string compiled into a line parser. The string is the format's text as nginx.conf gives
 * it between its quotes: variables ({@code $name} or {@code ${name}}) with literal text between them, e.g. nginx's
 * {@code combined}: {@code $remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent
 * "$http_referer" "$http_user_agent"}.
 *
 * <p>A line is matched left to right: each literal must be where the format puts it, and a variable's value runs to
 * the first place the literal after it appears ({@code $time_local} is always 26 characters, so a space inside it is
 * no end; the last variable runs to the end of the line, less the format's closing literal). Two variables with no
 * text between them cannot be told apart and are refused when the format is compiled. {@code -} is "no value", as
 * nginx writes it.
 *
 * <p>What is read of a line: the time ({@code $time_local}, {@code $time_iso8601} or {@code $msec}, one required),
 * the request ({@code $request}, else {@code $request_method} and {@code $request_uri}, one required), {@code $status},
 * {@code $remote_addr} (the client), {@code $request_time}, {@code $upstream_response_time}, {@code $upstream_addr},
 * {@code $host} (the Host header) and every {@code $http_NAME} (header NAME, {@code _} read as {@code -}). Every
 * other variable is matched and ignored.
 *
 * <p>Times: nginx writes a line when the request ends, so the arrival is that time less {@code $request_time} when
 * the format has it (otherwise the logged time itself). {@code $time_local} and {@code $time_iso8601} have whole
 * seconds only: the lines that end in the same second are spread evenly across it in file order (the k-th of n ends
 * at (k + 1/2)/n of the second), which is the order nginx wrote them in; otherwise a second's requests would all
 * arrive at once. {@code $msec} is used as it is. The service time is {@code $upstream_response_time}, else
 * {@code $request_time}. Where nginx tried several upstreams ({@code 0.010, 0.020}, or {@code 0.010 : 0.020} across
 * an internal redirect), the last is taken, the one that answered, as is the last of {@code $upstream_addr}: the
 * earlier attempts failed on other backends, which a replay does not repeat.
 */
public final class NginxLogFormat {
    /** nginx's built-in {@code combined} format, the default. */
    public static final String COMBINED = "$remote_addr - $remote_user [$time_local] \"$request\" $status "
            + "$body_bytes_sent \"$http_referer\" \"$http_user_agent\"";
    /** The {@code main} format of nginx's stock nginx.conf: combined and {@code $http_x_forwarded_for}. */
    public static final String MAIN = COMBINED + " \"$http_x_forwarded_for\"";
    private static final int TIME_LOCAL_LENGTH = 26;

    private final String text;
    /** literals[i] comes before variable i; literals[n] ends the line. */
    private final String[] literals;
    private final String[] variables;
    private final int remoteAddr;
    private final int timeLocal;
    private final int timeIso;
    private final int msec;
    private final int request;
    private final int method;
    private final int uri;
    private final int status;
    private final int requestTime;
    private final int upstreamTime;
    private final int upstreamAddr;
    private final int host;
    private final int[] headerVars;
    private final String[] headerNames;
    /** Whether a variable's value is read (the others are matched and skipped without a copy). */
    private final boolean[] used;

    private NginxLogFormat(String text, List<String> literals, List<String> variables) {
        this.text = text;
        this.literals = literals.toArray(String[]::new);
        this.variables = variables.toArray(String[]::new);
        remoteAddr = variables.indexOf("remote_addr");
        timeLocal = variables.indexOf("time_local");
        timeIso = variables.indexOf("time_iso8601");
        msec = variables.indexOf("msec");
        request = variables.indexOf("request");
        method = variables.indexOf("request_method");
        uri = variables.indexOf("request_uri");
        status = variables.indexOf("status");
        requestTime = variables.indexOf("request_time");
        upstreamTime = variables.indexOf("upstream_response_time");
        upstreamAddr = variables.indexOf("upstream_addr");
        host = variables.indexOf("host");
        List<Integer> hv = new ArrayList<>();
        List<String> hn = new ArrayList<>();
        for (int i = 0; i < variables.size(); i++) {
            String v = variables.get(i);
            if (v.startsWith("http_") && v.length() > 5) {
                hv.add(i);
                hn.add(headerName(v.substring(5)));
            }
        }
        headerVars = hv.stream().mapToInt(Integer::intValue).toArray();
        headerNames = hn.toArray(String[]::new);
        used = new boolean[variables.size()];
        for (int i : new int[] {remoteAddr, timeLocal, timeIso, msec, request, method, uri, status, requestTime,
            upstreamTime, upstreamAddr, host}) {
            if (i >= 0) {
                used[i] = true;
            }
        }
        for (int i : headerVars) {
            used[i] = true;
        }
    }

    /** {@code user_agent} → {@code User-Agent}, as nginx names the header of {@code $http_user_agent}. */
    static String headerName(String var) {
        StringBuilder b = new StringBuilder(var.length());
        boolean start = true;
        for (char c : var.toCharArray()) {
            if (c == '_') {
                b.append('-');
                start = true;
            } else {
                b.append(start ? Character.toUpperCase(c) : c);
                start = false;
            }
        }
        return b.toString();
    }

    /**
     * Compiles a format: its text, or the name {@code combined} or {@code main}.
     *
     * @throws IllegalArgumentException naming what is wrong, e.g. {@code $status and $bytes_sent need text between
     *                                  them}
     */
    public static NginxLogFormat compile(String format) {
        if (format == null || format.equals("combined")) {
            format = COMBINED;
        } else if (format.equals("main")) {
            format = MAIN;
        }
        List<String> literals = new ArrayList<>();
        List<String> variables = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i);
            if (c != '$') {
                lit.append(c);
                i++;
                continue;
            }
            int start;
            int end;
            if (i + 1 < format.length() && format.charAt(i + 1) == '{') {
                start = i + 2;
                end = format.indexOf('}', start);
                if (end < 0) {
                    throw new IllegalArgumentException("${ at column " + (i + 1) + " is not closed");
                }
                i = end + 1;
            } else {
                start = i + 1;
                end = start;
                while (end < format.length() && (Character.isLetterOrDigit(format.charAt(end))
                        || format.charAt(end) == '_')) {
                    end++;
                }
                i = end;
            }
            String name = format.substring(start, end);
            if (name.isEmpty()) {
                throw new IllegalArgumentException("$ at column " + start + " names no variable");
            }
            if (!variables.isEmpty() && lit.isEmpty()) {
                throw new IllegalArgumentException("$" + variables.get(variables.size() - 1) + " and $" + name
                        + " need text between them");
            }
            literals.add(lit.toString());
            lit.setLength(0);
            variables.add(name.toLowerCase(Locale.ROOT));
        }
        literals.add(lit.toString());
        if (!variables.contains("time_local") && !variables.contains("time_iso8601") && !variables.contains("msec")) {
            throw new IllegalArgumentException("needs a time: $time_local, $time_iso8601 or $msec");
        }
        if (!variables.contains("request") && !variables.contains("request_uri")) {
            throw new IllegalArgumentException("needs the request: $request, or $request_method and $request_uri");
        }
        return new NginxLogFormat(format, literals, variables);
    }

    /** The format's text. */
    public String text() {
        return text;
    }

    /** Whether lines carry {@code $request_time} (then the arrival is the logged end less it). */
    public boolean hasRequestTime() {
        return requestTime >= 0;
    }

    /** A line that does not fit: why, without a stack trace (a log may have many). */
    static final class BadLine extends Exception {
        BadLine(String reason) {
            super(reason, null, false, false);
        }
    }

    /** A parser of lines of this format: it keeps the last time it read, as a log repeats a second many times. */
    Parser parser() {
        return new Parser();
    }

    final class Parser {
        private final String[] values = new String[variables.length];
        private String lastTime;
        private long lastTimeMicros;
        /** The end time of the line parsed last. */
        long end;
        /** Whether that time was whole seconds ($time_local, $time_iso8601), not milliseconds ($msec). */
        boolean wholeSeconds;

        RecordedRequest parse(String line, long lineNo) throws BadLine {
            split(line);
            end = endMicros();
            String m;
            String target;
            if (request >= 0) {
                String req = values[request];
                if (req == null) {
                    throw new BadLine("no request line ($request is -)");
                }
                int sp = req.indexOf(' ');
                if (sp <= 0) {
                    throw new BadLine("request line without a target (got: " + abbreviate(req) + ")");
                }
                m = req.substring(0, sp);
                int last = req.lastIndexOf(' ');
                target = last > sp && req.startsWith("HTTP/", last + 1) ? req.substring(sp + 1, last)
                        : req.substring(sp + 1);
            } else {
                m = method >= 0 ? values[method] : "GET";
                target = values[uri];
                if (m == null || target == null) {
                    throw new BadLine("no request ($request_method or $request_uri is -)");
                }
            }
            target = Targets.pathAndQuery(target);
            if (target == null || !validMethod(m)) {
                throw new BadLine("request line is no METHOD TARGET (got: " + abbreviate(
                        request >= 0 ? values[request] : m + " " + values[uri]) + ")");
            }
            int st = 0;
            if (status >= 0 && values[status] != null) {
                st = statusOf(values[status]);
            }
            double reqSeconds = requestTime >= 0 && values[requestTime] != null
                    ? seconds(values[requestTime], "$request_time") : Double.NaN;
            double upstreamSeconds = upstreamTime >= 0 && values[upstreamTime] != null
                    ? lastSeconds(values[upstreamTime]) : Double.NaN;
            long at = Double.isNaN(reqSeconds) ? end : end - Math.round(reqSeconds * 1e6);
            double serviceMs = !Double.isNaN(upstreamSeconds) ? upstreamSeconds * 1000
                    : !Double.isNaN(reqSeconds) ? reqSeconds * 1000 : Double.NaN;
            String upstream = upstreamAddr >= 0 && values[upstreamAddr] != null ? last(values[upstreamAddr]) : null;
            List<Map.Entry<String, String>> headers = new ArrayList<>(headerVars.length + 1);
            if (host >= 0 && values[host] != null) {
                headers.add(Map.entry("Host", values[host]));
            }
            for (int i = 0; i < headerVars.length; i++) {
                String v = values[headerVars[i]];
                if (v != null) {
                    headers.add(Map.entry(headerNames[i], v));
                }
            }
            String client = remoteAddr >= 0 ? values[remoteAddr] : null;
            return new RecordedRequest(at, m, target, headers, null, serviceMs, upstream, st, client, lineNo);
        }

        /** Fills {@link #values} from the line; null for {@code -}. */
        private void split(String line) throws BadLine {
            String first = literals[0];
            if (!line.startsWith(first)) {
                throw new BadLine("does not match the log format: expected \"" + first + "\" at column 1");
            }
            int pos = first.length();
            int n = variables.length;
            for (int i = 0; i < n; i++) {
                String next = literals[i + 1];
                int end;
                if (i == timeLocal) {
                    end = pos + TIME_LOCAL_LENGTH;
                    if (end > line.length() || !line.startsWith(next, end)) {
                        throw new BadLine("does not match the log format: $time_local at column " + (pos + 1)
                                + " is not like 05/Dec/2026:07:00:01 +0000");
                    }
                } else if (i == n - 1) {
                    end = line.length() - next.length();
                    if (end < pos || !line.endsWith(next)) {
                        throw new BadLine("does not match the log format: the line does not end with \"" + next
                                + "\"");
                    }
                } else {
                    end = line.indexOf(next, pos);
                    if (end < 0) {
                        throw new BadLine("does not match the log format: expected \"" + next + "\" after $"
                                + variables[i] + " (from column " + (pos + 1) + ")");
                    }
                }
                if (!used[i] || end == pos || (end == pos + 1 && line.charAt(pos) == '-')) {
                    values[i] = null;
                } else {
                    values[i] = line.substring(pos, end);
                }
                pos = end + next.length();
            }
        }

        private long endMicros() throws BadLine {
            wholeSeconds = true;
            if (timeLocal >= 0 && values[timeLocal] != null) {
                String t = values[timeLocal];
                if (!t.equals(lastTime)) {
                    lastTimeMicros = timeLocal(t);
                    lastTime = t;
                }
                return lastTimeMicros;
            }
            if (msec >= 0 && values[msec] != null) {
                wholeSeconds = false;
                return msec(values[msec]);
            }
            if (timeIso >= 0 && values[timeIso] != null) {
                String t = values[timeIso];
                if (!t.equals(lastTime)) {
                    try {
                        OffsetDateTime odt = OffsetDateTime.parse(t);
                        lastTimeMicros = odt.toEpochSecond() * 1_000_000L + odt.getNano() / 1000;
                    } catch (DateTimeParseException e) {
                        throw new BadLine("$time_iso8601 is no time (got: " + abbreviate(t) + ")");
                    }
                    lastTime = t;
                }
                return lastTimeMicros;
            }
            throw new BadLine("no time (the format's time variables are all -)");
        }
    }

    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
        "Nov", "Dec"};

    /** {@code 05/Dec/2026:07:00:01 +0000} in microseconds since the epoch. */
    static long timeLocal(String t) throws BadLine {
        try {
            if (t.length() != TIME_LOCAL_LENGTH || t.charAt(2) != '/' || t.charAt(6) != '/' || t.charAt(11) != ':'
                    || t.charAt(14) != ':' || t.charAt(17) != ':' || t.charAt(20) != ' ') {
                throw new BadLine("");
            }
            int day = digits(t, 0, 2);
            String mon = t.substring(3, 6);
            int month = 0;
            for (int i = 0; i < 12; i++) {
                if (MONTHS[i].equals(mon)) {
                    month = i + 1;
                }
            }
            int year = digits(t, 7, 4);
            int h = digits(t, 12, 2);
            int mi = digits(t, 15, 2);
            int s = digits(t, 18, 2);
            char sign = t.charAt(21);
            int oh = digits(t, 22, 2);
            int om = digits(t, 24, 2);
            if (month == 0 || (sign != '+' && sign != '-') || h > 23 || mi > 59 || s > 60) {
                throw new BadLine("");
            }
            long offset = (oh * 3600L + om * 60L) * (sign == '-' ? -1 : 1);
            long epochSecond = LocalDate.of(year, month, day).toEpochDay() * 86_400L + h * 3600L + mi * 60L + s - offset;
            return epochSecond * 1_000_000L;
        } catch (BadLine | java.time.DateTimeException e) {
            throw new BadLine("$time_local is not like 05/Dec/2026:07:00:01 +0000 (got: " + abbreviate(t) + ")");
        }
    }

    private static int digits(String s, int from, int n) throws BadLine {
        int v = 0;
        for (int i = from; i < from + n; i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new BadLine("");
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    /** {@code 1733382001.123} (seconds, milliseconds) in microseconds. */
    static long msec(String t) throws BadLine {
        try {
            int dot = t.indexOf('.');
            long s = Long.parseLong(dot < 0 ? t : t.substring(0, dot));
            long micros = 0;
            if (dot >= 0) {
                String frac = (t.substring(dot + 1) + "000000").substring(0, 6);
                micros = Long.parseLong(frac);
            }
            return s * 1_000_000L + micros;
        } catch (NumberFormatException e) {
            throw new BadLine("$msec is no time in seconds (got: " + abbreviate(t) + ")");
        }
    }

    private static int statusOf(String s) throws BadLine {
        if (s.length() != 3) {
            throw new BadLine("$status is no status code (got: " + abbreviate(s) + ")");
        }
        return digits3(s);
    }

    private static int digits3(String s) throws BadLine {
        try {
            return digits(s, 0, 3);
        } catch (BadLine e) {
            throw new BadLine("$status is no status code (got: " + abbreviate(s) + ")");
        }
    }

    private static double seconds(String s, String var) throws BadLine {
        try {
            double d = Double.parseDouble(s);
            if (d >= 0 && d < 1e7) {
                return d;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new BadLine(var + " is no time in seconds (got: " + abbreviate(s) + ")");
    }

    /** The last of {@code 0.010, 0.020} or {@code 0.010 : 0.020}; NaN when that is {@code -}. */
    private static double lastSeconds(String s) throws BadLine {
        String v = last(s);
        return v == null ? Double.NaN : seconds(v, "$upstream_response_time");
    }

    /** The last member of a list nginx writes for several upstreams ({@code a, b : c}), or null when it is -. */
    static String last(String s) {
        int cut = Math.max(s.lastIndexOf(','), lastColonSeparator(s));
        String v = (cut < 0 ? s : s.substring(cut + 1)).trim();
        return v.isEmpty() || v.equals("-") ? null : v;
    }

    /** The position of the last {@code " : "} (nginx's separator across redirects), not an address's port colon. */
    private static int lastColonSeparator(String s) {
        int i = s.lastIndexOf(" : ");
        return i < 0 ? -1 : i + 1;
    }

    private static boolean validMethod(String m) {
        if (m.isEmpty() || m.length() > 20) {
            return false;
        }
        for (int i = 0; i < m.length(); i++) {
            char c = m.charAt(i);
            if (!(c >= 'A' && c <= 'Z' || c == '-' || c == '_')) {
                return false;
            }
        }
        return true;
    }

    static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
