package dev.fulcrum.admin.haproxy;

import dev.fulcrum.engine.EngineException;
import dev.fulcrum.rules.Limits;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * One HAProxy instance's runtime API (the "stats socket" CLI) reached over TCP, e.g. a config with
 * {@code stats socket ipv4@127.0.0.1:9999 level admin}.
 *
 * <p>Each command opens its own connection: without {@code prompt} mode HAProxy answers one command line and
 * closes the socket, so the end of the answer is simply end-of-stream. Prompt mode would save a TCP handshake
 * per command but needs the {@code "\n> "} prompt parsed out of every answer and a connection kept alive
 * across HAProxy reloads; at one poll per second over loopback or a LAN the simple form costs nothing.
 *
 * <p>Change commands answer with an empty line on success and with a sentence on failure; {@link #check}
 * turns those sentences into {@link EngineException}s with the admin API's statuses (404 unknown server or
 * backend, 409 duplicate, 400 refused value, 501 a command this HAProxy does not have) and names this
 * instance in the message, e.g. {@code HAProxy 127.0.0.1:9999: set server app/s9 weight 2: No such server.}
 *
 * <p>Names are checked before they are sent: HAProxy's CLI treats {@code ;} as a command separator, so an
 * unchecked server name could smuggle in a second command.
 */
public final class HaproxyRuntime {
    /** HAProxy's own rule for proxy and server names. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._:-]{1,64}");
    /** host:port, IPv4, a hostname, or a bracketed IPv6 address. */
    private static final Pattern ADDRESS = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9.-]+):\\d{1,5}");
    /** An answer larger than this is not a stats socket talking (a guess with ample room: show stat of 10k servers). */
    private static final int MAX_ANSWER_BYTES = 64 << 20;
    public static final int MAX_WEIGHT = 256;

    private final InetSocketAddress address;
    private final Duration timeout;
    private volatile HaproxyVersion version;

    public HaproxyRuntime(InetSocketAddress address) {
        this(address, Duration.ofSeconds(5));
    }

    public HaproxyRuntime(InetSocketAddress address, Duration timeout) {
        this.address = address;
        this.timeout = timeout;
    }

    public InetSocketAddress address() {
        return address;
    }

    /** host:port as the user wrote it, for messages and the title bar. */
    public String name() {
        return address.getHostString() + ":" + address.getPort();
    }

    // ---------------------------------------------------------------- raw command

    /**
     * Sends one command line and returns HAProxy's whole answer as text. Connection problems are a 502 naming
     * this instance; the answer itself is not judged here (see {@link #check}).
     */
    public String execute(String command) {
        if (command.indexOf('\n') >= 0 || command.indexOf('\r') >= 0) {
            throw new EngineException(400, "command: must be one line (got: " + command.replace("\n", "\\n") + ")");
        }
        int ms = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        try (Socket s = new Socket()) {
            s.connect(address, ms);
            s.setSoTimeout(ms);
            OutputStream out = s.getOutputStream();
            out.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            byte[] buf = new byte[16 * 1024];
            for (int n; (n = in.read(buf)) >= 0; ) {
                answer.write(buf, 0, n);
                if (answer.size() > MAX_ANSWER_BYTES) {
                    throw new EngineException(502, "HAProxy " + name() + ": answer to '" + command
                            + "' exceeds " + (MAX_ANSWER_BYTES >> 20) + " MB; is this a stats socket?");
                }
            }
            return answer.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new EngineException(502, "HAProxy " + name() + ": cannot run '" + command + "' on the stats socket ("
                    + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
        }
    }

    // ---------------------------------------------------------------- reading

    /** {@code show info} as key/value pairs (Name, Version, Pid, Uptime_sec, CurrConns ...). */
    public Map<String, String> showInfo() {
        Map<String, String> info = new LinkedHashMap<>();
        for (String line : execute("show info").split("\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                info.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
        }
        if (!info.containsKey("Version")) {
            throw new EngineException(502, "HAProxy " + name() + ": 'show info' answered without a Version line; "
                    + "is this an HAProxy stats socket?");
        }
        return info;
    }

    /** The version from {@code show info}, asked once and remembered (a restart with a new binary needs a reconnect). */
    public HaproxyVersion version() {
        HaproxyVersion v = version;
        if (v == null) {
            v = HaproxyVersion.parse(showInfo().get("Version"));
            version = v;
        }
        return v;
    }

    /** {@code show stat}: every server row and every BACKEND row (frontends are left out). */
    public Stats showStat() {
        return parseStat(name(), execute("show stat"));
    }

    /** {@code show servers state}: admin bits and weights of every server. */
    public List<ServerState> showServersState() {
        return parseServersState(name(), execute("show servers state"));
    }

    /** The servers and backends of one {@code show stat} answer. */
    public record Stats(List<ServerStat> servers, List<BackendStat> backends) {
    }

    // ---------------------------------------------------------------- changing

    /** {@code set server B/S weight N}; N from 0 to 256 (HAProxy's range, smaller than Fulcrum's 1000). */
    public void setWeight(String backend, String server, int weight) {
        checkWeight(weight);
        run("set server " + target(backend, server) + " weight " + weight);
    }

    /** {@code set server B/S state ready|drain|maint}. */
    public void setState(String backend, String server, AdminState state) {
        run("set server " + target(backend, server) + " state " + state.cliName());
    }

    /**
     * Adds a dynamic server and puts it in rotation: {@code add server B/S ADDR [weight N] [check]}, then
     * {@code enable health} when checked and {@code enable server} (HAProxy creates dynamic servers in
     * maintenance). Needs HAProxy 2.5+ and a backend whose balance algorithm allows dynamic servers; otherwise
     * 501 naming the version.
     *
     * @param check whether HAProxy should health-check the new server with the backend's check settings
     */
    public void addServer(String backend, String server, String hostPort, int weight, boolean check) {
        addServer(backend, server, hostPort, weight, check, null, false);
    }

    /** As above, with the server's {@code maxconn} (null: none) and {@code backup} flag. */
    public void addServer(String backend, String server, String hostPort, int weight, boolean check, Integer maxConn,
                          boolean backup) {
        checkWeight(weight);
        if (hostPort == null || !ADDRESS.matcher(hostPort).matches()) {
            throw new EngineException(400, "address: must be HOST:PORT (got: " + hostPort + ")");
        }
        if (Limits.maxInFlight(maxConn) != null) {
            throw new EngineException(400, "maxInFlight: must be at least 1 (got: " + maxConn + ")");
        }
        requireDynamicServers("add server");
        String t = target(backend, server);
        run("add server " + t + " " + hostPort + " weight " + weight + (check ? " check" : "")
                + (maxConn != null ? " maxconn " + maxConn : "") + (backup ? " backup" : ""));
        if (check) {
            run("enable health " + t);
        }
        run("enable server " + t);
    }

    /**
     * Removes a dynamic or configured server: {@code set server B/S state maint}, then {@code del server B/S}.
     * HAProxy refuses while the server still has connections (409 with its message); drain first and retry.
     */
    public void deleteServer(String backend, String server) {
        requireDynamicServers("del server");
        String t = target(backend, server);
        AdminState before = showServersState().stream()
                .filter(s -> s.backend().equals(backend) && s.server().equals(server))
                .map(ServerState::admin).findFirst().orElse(null);
        run("set server " + t + " state maint");
        try {
            run("del server " + t);
        } catch (EngineException e) {
            // still connections (409): it stays in maintenance and drains, to be removed again later. Refused for
            // good (a server others track): it goes back to what it was, not left out of rotation by a failed remove
            if (e.status() != 409 && before != null && before != AdminState.MAINT) {
                try {
                    setState(backend, server, before);
                } catch (EngineException restore) {
                    e.addSuppressed(restore);
                }
            }
            throw e;
        }
    }

    /** Refuses (501, naming this instance and its version) a dynamic-server command this HAProxy does not have. */
    void requireDynamicServers(String command) {
        HaproxyVersion v = version();
        if (!v.supportsDynamicServers()) {
            throw new EngineException(501, "HAProxy " + name() + ": '" + command + "' is not supported by HAProxy "
                    + v.shortName() + " (dynamic servers need HAProxy 2.5 or newer; this instance runs " + v.text() + ")");
        }
    }

    /** Runs a change command and throws when the answer is a refusal. */
    public void run(String command) {
        check(command, execute(command));
    }

    // ---------------------------------------------------------------- answers

    /**
     * Judges the answer of a change command: an empty answer or one of HAProxy's success sentences passes,
     * anything else is an {@link EngineException} with the status the admin API would use.
     */
    void check(String command, String answer) {
        String text = answer.strip();
        if (text.isEmpty() || text.equals("New server registered.") || text.equals("Server deleted.")) {
            return;
        }
        String firstLine = text.lines().findFirst().orElse(text);
        String lower = text.toLowerCase(Locale.ROOT);
        int status;
        String message = "HAProxy " + name() + ": " + command + ": " + firstLine;
        if (lower.startsWith("no such server") || lower.startsWith("no such backend")) {
            status = 404;
        } else if (lower.startsWith("already exists")) {
            status = 409;
        } else if (lower.startsWith("unknown command")) {
            status = 501;
            message = "HAProxy " + name() + ": '" + verb(command) + "' is not supported by HAProxy "
                    + versionForMessage() + " (answer: " + firstLine + ")";
        } else if (lower.contains("dynamic load balancing") || lower.contains("experimental mode")
                || lower.contains("not supported") || lower.contains("cannot be used with a dynamic server")) {
            status = 501;
            message = "HAProxy " + name() + ": " + command + ": not supported by HAProxy " + versionForMessage()
                    + " here: " + firstLine;
        } else if (lower.startsWith("permission denied")) {
            status = 403;
            message += " (the stats socket needs 'level admin')";
        } else if (lower.contains("still has connections") || lower.contains("still used")
                || lower.contains("only servers in maintenance")) {
            status = 409;
        } else {
            status = 400;
        }
        throw new EngineException(status, message);
    }

    private String versionForMessage() {
        try {
            return version().shortName();
        } catch (RuntimeException e) {
            return "(version unknown)";
        }
    }

    private static String verb(String command) {
        String[] w = command.split(" ");
        return w.length >= 2 ? w[0] + " " + w[1] : command;
    }

    private static String target(String backend, String server) {
        checkName("backend", backend);
        checkName("server", server);
        return backend + "/" + server;
    }

    static void checkName(String field, String value) {
        if (value == null || !NAME.matcher(value).matches()) {
            throw new EngineException(400, field + ": must be 1-64 chars of [A-Za-z0-9._:-] (got: " + value + ")");
        }
    }

    static void checkWeight(int weight) {
        if (weight < 0 || weight > MAX_WEIGHT) {
            throw new EngineException(400, "weight: must be between 0 and " + MAX_WEIGHT
                    + " for HAProxy (got: " + weight + ")");
        }
    }

    // ---------------------------------------------------------------- parsing

    static Stats parseStat(String instance, String csv) {
        List<String> lines = csv.lines().toList();
        if (lines.isEmpty() || !lines.get(0).startsWith("# ")) {
            throw new EngineException(502, "HAProxy " + instance + ": 'show stat' answered without a CSV header: "
                    + (lines.isEmpty() ? "(nothing)" : lines.get(0)));
        }
        List<String> header = splitCsv(lines.get(0).substring(2));
        Map<String, Integer> col = new HashMap<>();
        for (int i = 0; i < header.size(); i++) {
            col.putIfAbsent(header.get(i), i);
        }
        List<ServerStat> servers = new ArrayList<>();
        List<BackendStat> backends = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            Row r = new Row(splitCsv(line), col);
            String sv = r.str("svname");
            if (sv.equals("FRONTEND")) {
                continue;
            }
            if (sv.equals("BACKEND")) {
                backends.add(new BackendStat(r.str("pxname"), r.str("algo"), r.str("status"), (int) r.num("scur", 0)));
                continue;
            }
            int weight = (int) r.num("weight", 0);
            String code = r.str("check_code");
            String check = r.str("check_status");
            boolean running = check.startsWith("* ");
            if (running) {
                // "* L7OK": a check is under way; the status is the last result, the code (0) is not one
                check = check.substring(2);
                code = "";
            }
            long slim = r.num("slim", -1);
            servers.add(new ServerStat(r.str("pxname"), sv, r.str("status"), weight, (int) r.num("uweight", weight),
                    (int) r.num("scur", 0), (int) r.num("qcur", 0), (int) r.num("rate", 0), r.num("stot", 0),
                    r.num("econ", 0), r.num("eresp", 0), r.num("hrsp_5xx", 0), check,
                    code.isEmpty() ? null : Integer.valueOf(code), r.num("check_duration", -1), r.num("lastchg", -1),
                    r.num("bck", 0) == 1, r.str("addr"), slim < 0 ? null : (int) slim, r.num("rtime", 0), running));
        }
        return new Stats(List.copyOf(servers), List.copyOf(backends));
    }

    static List<ServerState> parseServersState(String instance, String text) {
        List<String> lines = text.lines().toList();
        Map<String, Integer> col = null;
        List<ServerState> out = new ArrayList<>();
        for (String line : lines) {
            if (line.startsWith("# ")) {
                String[] names = line.substring(2).trim().split(" ");
                col = new HashMap<>();
                for (int i = 0; i < names.length; i++) {
                    col.put(names[i], i);
                }
                continue;
            }
            if (col == null || line.isBlank()) {
                continue; // the format version line ("1") comes before the header
            }
            Row r = new Row(List.of(line.trim().split(" ")), col);
            out.add(new ServerState(r.str("be_name"), r.str("srv_name"), r.str("srv_addr"), (int) r.num("srv_port", 0),
                    (int) r.num("srv_op_state", 0), (int) r.num("srv_admin_state", 0), (int) r.num("srv_uweight", 0),
                    (int) r.num("srv_iweight", 0)));
        }
        if (col == null) {
            throw new EngineException(502, "HAProxy " + instance + ": 'show servers state' answered without a header: "
                    + text.strip());
        }
        return List.copyOf(out);
    }

    /** One CSV line; HAProxy quotes a field (doubling inner quotes) only when it holds a comma or a quote. */
    static List<String> splitCsv(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        cur.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    /** Field access by column name, tolerant of columns an older HAProxy does not have. */
    private record Row(List<String> fields, Map<String, Integer> col) {
        String str(String name) {
            Integer i = col.get(name);
            return i == null || i >= fields.size() ? "" : fields.get(i);
        }

        long num(String name, long absent) {
            String s = str(name);
            if (s.isEmpty() || s.equals("-")) {
                return absent;
            }
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                return absent;
            }
        }
    }
}
