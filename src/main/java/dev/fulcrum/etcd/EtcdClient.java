package dev.fulcrum.etcd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fulcrum.time.SystemClock;
import dev.fulcrum.trust.Pem;
import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.channels.ClosedChannelException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * etcd v3 through its JSON gateway over {@code java.net.http}. Every call blocks on the network (never on the JavaFX
 * thread) and is tried on each endpoint in turn until one answers: a refused connection, a reset or a timeout moves
 * to the next; an answer of etcd's (an error too) is final, except "unavailable" (gRPC code 14: a member without a
 * leader or shutting down), which moves to the next as well. The endpoint that answered last is tried first next
 * time, so a dead member costs one refused connection, not one per call. When none answers,
 * {@link EtcdException#unreachable()}. With a user, the client authenticates first and again once when etcd says
 * its token is invalid (tokens expire after etcd's {@code --auth-token-ttl} of idleness). Thread-safe.
 *
 * <p>Keys and values are text; revisions and lease ids are etcd's 64-bit numbers (strings in the gateway's JSON;
 * proto3 JSON leaves out a field that is zero, so a missing number is 0 and a missing flag false).
 */
public final class EtcdClient implements AutoCloseable {
    /** How long one request may take on one endpoint before the next is tried. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(3);

    /** How often a blocked watch looks at its {@code cancel}. */
    private static final long CANCEL_POLL_MS = 100;
    /** gRPC's "unavailable": the member cannot serve now (no leader, stopping); another may. */
    private static final int UNAVAILABLE = 14;
    /** gRPC's "unauthenticated": etcd's answer to a token it does not know (expired, or its member restarted). */
    private static final int UNAUTHENTICATED = 16;

    private static final ObjectMapper JSON = new ObjectMapper();

    private final EtcdOptions options;
    private final HttpClient http;
    /** The TLS the HTTP client uses, for {@link #tlsRefusal}'s handshake of its own. */
    private final SSLContext ssl;
    /** Index of the endpoint that answered last: tried first. */
    private volatile int preferred;
    /** The auth token (null before the first authenticate, or without a user). */
    private volatile String token;

    /** Builds the HTTP client (TLS from the options' files); a file that cannot be read is an error naming it. */
    public EtcdClient(EtcdOptions options) {
        this.options = options;
        if (options.endpoints().isEmpty()) {
            throw new IllegalArgumentException("endpoints: at least one etcd endpoint is needed (got: [])");
        }
        for (URI u : options.endpoints()) {
            String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase();
            if (!(scheme.equals("http") || scheme.equals("https")) || u.getHost() == null || u.getPort() < 1) {
                throw new IllegalArgumentException("endpoints: an etcd endpoint is http://HOST:PORT or https://HOST:PORT"
                        + " (got: " + u + ")");
            }
        }
        if ((options.cert() == null) != (options.key() == null)) {
            throw new IllegalArgumentException(options.cert() == null
                    ? "cert: a client key needs its certificate (got: key " + options.key() + ", no cert)"
                    : "key: a client certificate needs its private key (got: cert " + options.cert() + ", no key)");
        }
        if (options.user() != null && options.password() == null) {
            throw new IllegalArgumentException("password: etcd user '" + options.user() + "' needs a password (got: none)");
        }
        HttpClient.Builder b = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(REQUEST_TIMEOUT);
        if (options.ca() != null || options.cert() != null) {
            b.sslContext(sslContext(options));
        }
        this.http = b.build();
        this.ssl = http.sslContext();
    }

    /** A TLS context trusting {@code ca} (else the JDK's store) and presenting {@code cert}/{@code key} if given. */
    private static SSLContext sslContext(EtcdOptions o) {
        requireFile(o.ca(), "ca");
        requireFile(o.cert(), "cert");
        requireFile(o.key(), "key");
        try {
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (o.ca() != null) {
                KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
                trust.load(null, null);
                int i = 0;
                for (X509Certificate c : Pem.certificates(o.ca(), "ca")) {
                    trust.setCertificateEntry("ca" + i++, c);
                }
                tmf.init(trust);
            } else {
                tmf.init((KeyStore) null);
            }
            KeyManagerFactory kmf = null;
            if (o.cert() != null) {
                List<X509Certificate> chain = Pem.certificates(o.cert(), "cert");
                PrivateKey key = Pem.privateKey(o.key(), "key");
                char[] none = new char[0];
                KeyStore keys = KeyStore.getInstance(KeyStore.getDefaultType());
                keys.load(null, null);
                keys.setKeyEntry("client", key, none, chain.toArray(X509Certificate[]::new));
                kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                kmf.init(keys, none);
            }
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
            return ctx;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("cert: the client certificate and key do not make a TLS identity ("
                    + e.getMessage() + ") (got: " + o.cert() + ", " + o.key() + ")", e);
        }
    }

    private static void requireFile(Path file, String field) {
        if (file != null && !Files.isReadable(file)) {
            throw new IllegalArgumentException(field + ": " + (Files.exists(file) ? "the file cannot be read"
                    : "no such file") + " (got: " + file + ")");
        }
    }

    public EtcdOptions options() {
        return options;
    }

    /** The key, or an empty range (with the store's revision) when it does not exist. */
    public Range get(String key) {
        ObjectNode body = JSON.createObjectNode().put("key", b64(key));
        return range(call("/v3/kv/range", body));
    }

    /** Every key that starts with {@code prefix}, in key order. */
    public Range getPrefix(String prefix) {
        ObjectNode body = JSON.createObjectNode().put("key", b64(prefix)).put("range_end", rangeEnd(prefix));
        return range(call("/v3/kv/range", body));
    }

    /** Writes the key; returns the store's revision after it. */
    public long put(String key, String value) {
        return put(key, value, 0);
    }

    /** Writes the key attached to {@code lease} (0 = none); returns the store's revision after it. */
    public long put(String key, String value, long lease) {
        return revision(call("/v3/kv/put", putRequest(key, value, lease)));
    }

    /**
     * Writes the key only if its mod revision is still {@code modRevision} (0: only if it does not exist), in one
     * transaction ({@code /v3/kv/txn}).
     */
    public Swap putIf(String key, String value, long modRevision) {
        ObjectNode body = JSON.createObjectNode();
        body.putArray("compare").add(compare(key, modRevision));
        body.putArray("success").addObject().set("request_put", putRequest(key, value, 0));
        return swap(call("/v3/kv/txn", body));
    }

    /** Deletes the key only if its mod revision is still {@code modRevision}. */
    public Swap deleteIf(String key, long modRevision) {
        ObjectNode body = JSON.createObjectNode();
        body.putArray("compare").add(compare(key, modRevision));
        body.putArray("success").addObject().putObject("request_delete_range").put("key", b64(key));
        return swap(call("/v3/kv/txn", body));
    }

    /** Deletes the key; returns how many keys were deleted (0 or 1). */
    public long delete(String key) {
        return number(call("/v3/kv/deleterange", JSON.createObjectNode().put("key", b64(key))), "deleted");
    }

    /** Deletes every key under {@code prefix}; returns how many. */
    public long deletePrefix(String prefix) {
        ObjectNode body = JSON.createObjectNode().put("key", b64(prefix)).put("range_end", rangeEnd(prefix));
        return number(call("/v3/kv/deleterange", body), "deleted");
    }

    /** Compacts the history up to {@code revision} (tests; an operator's tool). */
    public void compact(long revision) {
        call("/v3/kv/compaction", JSON.createObjectNode().put("revision", Long.toString(revision)));
    }

    /** A new lease of {@code ttlSeconds}; returns its id. */
    public long grantLease(long ttlSeconds) {
        return number(call("/v3/lease/grant", JSON.createObjectNode().put("TTL", Long.toString(ttlSeconds))), "ID");
    }

    /** Renews the lease once; returns its TTL now, 0 or less when etcd no longer has it. */
    public long keepAlive(long lease) {
        JsonNode answer = call("/v3/lease/keepalive", JSON.createObjectNode().put("ID", Long.toString(lease)));
        // The gateway streams keep-alive answers, one {"result": ...} per request; a lease etcd no longer has
        // comes back with no TTL (proto3 leaves out the zero).
        return number(answer.path("result"), "TTL");
    }

    /** Ends the lease now; its keys are deleted. */
    public void revoke(long lease) {
        call("/v3/lease/revoke", JSON.createObjectNode().put("ID", Long.toString(lease)));
    }

    /**
     * Opens one watch of the keys under {@code prefix} from {@code fromRevision} on the first endpoint that answers,
     * and hands each answer to {@code listener} on the calling thread until the stream ends, {@code cancel} is set or
     * etcd cancels it; it returns then. Reconnecting is {@link EtcdMirror}'s. When no endpoint answers it throws
     * (unreachable); an endpoint whose stream broke is tried last next time.
     */
    public void watch(String prefix, long fromRevision, WatchListener listener, BooleanSupplier cancel) {
        ObjectNode create = JSON.createObjectNode();
        create.putObject("create_request").put("key", b64(prefix)).put("range_end", rangeEnd(prefix))
                .put("start_revision", Long.toString(fromRevision));
        String body = create.toString();
        List<String> problems = new ArrayList<>();
        boolean tlsRefused = false;
        int n = options.endpoints().size();
        int first = preferred;
        for (int i = 0; i < n && !cancel.getAsBoolean(); i++) {
            int index = (first + i) % n;
            URI endpoint = options.endpoints().get(index);
            boolean retriedAuth = false;
            boolean retriedClosed = false;
            while (true) {
                Outcome outcome;
                try {
                    outcome = watchOn(endpoint, body, listener, cancel);
                } catch (Unavailable e) {
                    if (e.closed && !retriedClosed) {
                        retriedClosed = true;
                        continue;
                    }
                    problems.add(label(endpoint) + ": " + e.getMessage());
                    tlsRefused |= e.tlsRefused;
                    break;
                }
                if (outcome == Outcome.AUTH && !retriedAuth && options.user() != null) {
                    retriedAuth = true;
                    token = null;
                    continue;
                }
                if (outcome == Outcome.AUTH) {
                    throw new EtcdException("etcd " + label(endpoint) + ": the watch was refused: invalid auth token",
                            false, null);
                }
                // A stream that broke sends the next watch to the next endpoint first: its member may be gone.
                preferred = outcome == Outcome.BROKEN ? (index + 1) % n : index;
                return;
            }
        }
        if (cancel.getAsBoolean()) {
            return;
        }
        throw new EtcdException("etcd " + String.join("; ", problems), !tlsRefused, null);
    }

    private enum Outcome { ENDED, BROKEN, AUTH }

    /**
     * One watch stream on one endpoint. Before the head of the answer arrives, a failure is {@link Unavailable} (the
     * next endpoint is tried); after it, the stream's end is the outcome.
     */
    private Outcome watchOn(URI endpoint, String body, WatchListener listener, BooleanSupplier cancel)
            throws Unavailable {
        Lines lines = new Lines();
        int[] status = {0};
        // hasleader: etcd ends the watch of a member that lost its leader (a minority), instead of keeping a
        // stream that can never carry another change open.
        HttpRequest watch = HttpRequest.newBuilder(request(endpoint, "/v3/watch", body, token(endpoint)), (k, v) -> true)
                .header("Grpc-Metadata-hasleader", "true").build();
        // java.net.http completes sendAsync's future only when a subscriber's body ends, so the head is told
        // through the queue, by the handler that etcd's head reaches.
        CompletableFuture<HttpResponse<Void>> sent = http.sendAsync(watch, info -> {
                    status[0] = info.statusCode();
                    lines.queue.add(Lines.HEAD);
                    return HttpResponse.BodySubscribers.fromLineSubscriber(lines);
                });
        sent.whenComplete((r, e) -> lines.queue.add(e != null ? e : Lines.END));
        boolean head = false;
        boolean opened = false;
        long deadline = SystemClock.nanoTime() + REQUEST_TIMEOUT.toNanos();
        try {
            while (true) {
                Object item;
                try {
                    item = lines.queue.poll(CANCEL_POLL_MS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Outcome.ENDED;
                }
                if (cancel.getAsBoolean()) {
                    return Outcome.ENDED;
                }
                if (item == null) {
                    if (!head && SystemClock.nanoTime() - deadline > 0) {
                        throw new Unavailable("no answer in " + REQUEST_TIMEOUT.toMillis() + " ms");
                    }
                    continue;
                }
                if (item == Lines.HEAD) {
                    head = true;
                    continue;
                }
                if (item == Lines.END || item instanceof Throwable) {
                    if (!head) {
                        throw item instanceof Throwable t ? failed(endpoint, t) : new Unavailable("closed without an answer");
                    }
                    return Outcome.BROKEN;
                }
                String line = (String) item;
                if (line.isBlank()) {
                    continue;
                }
                JsonNode answer = parse(endpoint, status[0], line);
                JsonNode error = answer.get("error");
                if (error != null || status[0] != 200) {
                    // A stream's error is {"error":{"grpc_code","message"}}; a refused request's {"error","code"}.
                    int code = error != null && error.isObject() ? error.path("grpc_code").asInt(-1)
                            : answer.path("code").asInt(-1);
                    String message = error != null && error.isObject() ? error.path("message").asText()
                            : answer.path("message").asText("HTTP " + status[0] + " " + abbreviate(line));
                    if (code == UNAUTHENTICATED && !opened) {
                        return Outcome.AUTH;
                    }
                    if (code == UNAVAILABLE) {
                        if (!opened) {
                            throw new Unavailable(message);
                        }
                        return Outcome.BROKEN;
                    }
                    throw new EtcdException("etcd " + label(endpoint) + ": " + message, false, null);
                }
                JsonNode result = answer.path("result");
                String reason = result.path("cancel_reason").asText("");
                if (result.path("canceled").asBoolean() && !reason.isEmpty()) {
                    // A watch etcd refused comes back created and canceled at once, the gRPC error in words.
                    if (reason.contains("code = Unauthenticated") && !opened) {
                        return Outcome.AUTH;
                    }
                    throw new EtcdException("etcd " + label(endpoint) + ": watch refused: "
                            + reason.replaceFirst("^rpc error: code = \\w+ desc = ", ""), false, null);
                }
                if (result.path("created").asBoolean()) {
                    opened = true;
                    listener.opened(endpoint.toString());
                }
                long compacted = number(result, "compact_revision");
                if (compacted > 0) {
                    listener.compacted(compacted);
                    return Outcome.ENDED;
                }
                JsonNode events = result.path("events");
                if (events.isArray() && !events.isEmpty()) {
                    List<Event> out = new ArrayList<>();
                    for (JsonNode e : events) {
                        out.add(new Event("DELETE".equals(e.path("type").asText()), keyValue(e.path("kv"))));
                    }
                    listener.events(number(result.path("header"), "revision"), out);
                }
                if (result.path("canceled").asBoolean()) {
                    return Outcome.ENDED;
                }
            }
        } finally {
            lines.cancel();
            sent.cancel(true);
        }
    }

    /** The lines of a streaming body, queued for the watching thread; {@link #END} or a Throwable ends them. */
    private static final class Lines implements Flow.Subscriber<String> {
        static final Object HEAD = new Object();
        static final Object END = new Object();
        final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
        private volatile Flow.Subscription subscription;
        private volatile boolean cancelled;

        @Override
        public void onSubscribe(Flow.Subscription s) {
            subscription = s;
            if (cancelled) {
                s.cancel();
            } else {
                s.request(Long.MAX_VALUE);
            }
        }

        @Override
        public void onNext(String line) {
            queue.add(line);
        }

        @Override
        public void onError(Throwable t) {
            queue.add(t);
        }

        @Override
        public void onComplete() {
            queue.add(END);
        }

        /** Closes the stream (and its connection). */
        void cancel() {
            cancelled = true;
            Flow.Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }
    }

    /** What one watch stream says. */
    public interface WatchListener {
        /** The watch is open from this endpoint. */
        default void opened(String endpoint) {
        }

        /**
         * Changes up to {@code revision} (the store's revision when etcd sent them; each event's
         * {@code kv.modRevision()} is its own), in order; {@code kv.createRevision() == 0} and {@code deleted} for
         * a delete.
         */
        void events(long revision, java.util.List<Event> events);

        /** etcd compacted past the revision asked for: the watch ended; read the prefix whole again. */
        void compacted(long compactRevision);
    }

    /** One change: a put (the key as it is now) or a delete (the key and the revision that deleted it). */
    public record Event(boolean deleted, KeyValue kv) {
    }

    @Override
    public void close() {
        // java.net.http's client of Java 17 has no close; its threads are daemons and its idle connections time out.
    }

    // ---- one request -------------------------------------------------------------------------------------------

    /** Sends {@code body} to {@code path} on each endpoint in turn until one answers; etcd's error is final. */
    private JsonNode call(String path, ObjectNode body) {
        String text = body.toString();
        List<String> problems = new ArrayList<>();
        boolean tlsRefused = false;
        int n = options.endpoints().size();
        int first = preferred;
        for (int i = 0; i < n; i++) {
            int index = (first + i) % n;
            URI endpoint = options.endpoints().get(index);
            try {
                JsonNode answer = callOn(endpoint, path, text);
                preferred = index;
                return answer;
            } catch (Unavailable e) {
                problems.add(label(endpoint) + ": " + e.getMessage());
                tlsRefused |= e.tlsRefused;
            }
        }
        throw new EtcdException("etcd " + String.join("; ", problems), !tlsRefused, null);
    }

    /** One endpoint answered with etcd's "unavailable", or did not answer. */
    private static final class Unavailable extends Exception {
        /** The endpoint answered but refused the connection's TLS (certificate, CA): a refusal, not an outage. */
        final boolean tlsRefused;

        Unavailable(String message) {
            this(message, false);
        }

        Unavailable(String message, boolean tlsRefused) {
            this(message, tlsRefused, false);
        }

        /**
         * Whether the connection closed under the request (not refused, not timed out, not TLS): what a kept-alive
         * connection to a member that restarted since does on its next request, so it is worth one more try.
         */
        final boolean closed;

        private Unavailable(String message, boolean tlsRefused, boolean closed) {
            super(message, null, false, false);
            this.tlsRefused = tlsRefused;
            this.closed = closed;
        }

        /** Why a request got no answer. */
        static Unavailable of(Throwable e) {
            boolean tls = tls(e) != null;
            boolean refused = cause(e, ConnectException.class) != null;
            boolean timedOut = cause(e, HttpTimeoutException.class) != null || cause(e, SocketTimeoutException.class) != null;
            return new Unavailable(describe(e), tls, !tls && !refused && !timedOut);
        }
    }

    /**
     * Why a request to {@code endpoint} got no answer. A connection closed under it on an https endpoint may be a TLS
     * refusal whose alert was lost: TLS 1.3 refuses a client certificate only after the handshake, when the request is
     * already sent, and a server that closes with that request unread resets the connection, which can drop the
     * alert before it is read. {@link #tlsRefusal} then hears it on a connection of its own.
     */
    private Unavailable failed(URI endpoint, Throwable e) {
        Unavailable u = Unavailable.of(e);
        if (u.closed && "https".equalsIgnoreCase(endpoint.getScheme())) {
            String refusal = tlsRefusal(endpoint);
            if (refusal != null) {
                return new Unavailable(refusal, true);
            }
        }
        return u;
    }

    /**
     * A handshake with {@code endpoint} and one read, sending nothing: a member that refuses this client's TLS says so
     * with an alert (nothing unread on its side, so its close is not a reset). Returns {@code TLS: <why>}, or null
     * when the member keeps the connection open for a request (a second) or it cannot be reached.
     */
    private String tlsRefusal(URI endpoint) {
        try (SSLSocket socket = (SSLSocket) ssl.getSocketFactory().createSocket()) {
            socket.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()),
                    (int) REQUEST_TIMEOUT.toMillis());
            socket.setSoTimeout(1000);
            SSLParameters p = socket.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(p);
            socket.startHandshake();
            socket.getInputStream().read();
            return null;
        } catch (SSLException e) {
            return "TLS: " + e.getMessage();
        } catch (IOException e) {
            return null; // a read that timed out (the member waits for a request) or a member gone: no refusal
        }
    }

    /** The TLS failure in {@code e}'s causes, or null. */
    private static SSLException tls(Throwable e) {
        return cause(e, SSLException.class);
    }

    /** The first of {@code e} and its causes that is a {@code type}, or null. */
    private static <T extends Throwable> T cause(Throwable e, Class<T> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }

    private JsonNode callOn(URI endpoint, String path, String body) throws Unavailable {
        boolean retriedAuth = false;
        boolean retriedClosed = false;
        while (true) {
            Answer response;
            try {
                response = send(endpoint, path, body, token(endpoint));
            } catch (IOException e) {
                Unavailable u = failed(endpoint, e);
                if (u.closed && !retriedClosed) {
                    // Once more on a new connection: the pool's may have outlived its member's restart.
                    retriedClosed = true;
                    continue;
                }
                throw u;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new EtcdException("etcd " + label(endpoint) + ": interrupted", true, e);
            }
            JsonNode answer = parse(endpoint, response.statusCode(), response.body());
            if (response.statusCode() == 200 && !answer.has("error")) {
                return answer;
            }
            int code = answer.path("code").asInt(-1);
            String message = answer.path("message").asText("");
            if (message.isEmpty()) {
                message = "HTTP " + response.statusCode() + " " + abbreviate(response.body());
            }
            if (code == UNAVAILABLE) {
                throw new Unavailable(message);
            }
            if (code == UNAUTHENTICATED && options.user() != null && !retriedAuth) {
                retriedAuth = true;
                token = null;
                continue;
            }
            throw new EtcdException("etcd " + label(endpoint) + ": " + message, false, null);
        }
    }

    /** The token to send to {@code endpoint}, authenticating there first when there is none yet. */
    private String token(URI endpoint) throws Unavailable {
        if (options.user() == null) {
            return null;
        }
        String t = token;
        if (t != null) {
            return t;
        }
        synchronized (this) {
            if (token == null) {
                ObjectNode body = JSON.createObjectNode().put("name", options.user()).put("password", options.password());
                Answer response;
                try {
                    response = send(endpoint, "/v3/auth/authenticate", body.toString(), null);
                } catch (IOException e) {
                    throw failed(endpoint, e);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new EtcdException("etcd " + label(endpoint) + ": interrupted", true, e);
                }
                JsonNode answer = parse(endpoint, response.statusCode(), response.body());
                String got = answer.path("token").asText("");
                if (response.statusCode() != 200 || got.isEmpty()) {
                    if (answer.path("code").asInt(-1) == UNAVAILABLE) {
                        throw new Unavailable(answer.path("message").asText());
                    }
                    throw new EtcdException("etcd " + label(endpoint) + ": user '" + options.user() + "': "
                            + answer.path("message").asText("HTTP " + response.statusCode()), false, null);
                }
                token = got;
            }
            return token;
        }
    }

    /** A unary call's answer: its status and its body as text. */
    private record Answer(int statusCode, String body) {
    }

    /**
     * POSTs {@code body} to {@code path} on {@code endpoint} and reads the answer whole. etcd's JSON gateway ends its
     * error answers (a compacted revision, a lease not found) with a trailer field after the last chunk,
     * {@code Grpc-Trailer-Content-Type}, and java.net.http's HttpClient (JDK 17.0.21) may fail such an answer with
     * "CR expected" before handing over any of its body. An answer that failed so, after an error's head announcing a
     * trailer, is asked again over {@link HttpURLConnection}, which reads trailers: it was an error, so etcd changed
     * nothing (as when an unavailable member's call goes on to the next endpoint). The second call has its own
     * timeouts, so such an answer may take up to twice {@link #REQUEST_TIMEOUT}.
     */
    private Answer send(URI endpoint, String path, String body, String auth) throws IOException, InterruptedException {
        // set on HttpClient's thread, read here after send returns or throws
        java.util.concurrent.atomic.AtomicBoolean errorWithTrailer = new java.util.concurrent.atomic.AtomicBoolean();
        try {
            HttpResponse<String> r = http.send(request(endpoint, path, body, auth), info -> {
                errorWithTrailer.set(info.statusCode() >= 400 && info.headers().firstValue("Trailer").isPresent());
                return HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
            });
            return new Answer(r.statusCode(), r.body());
        } catch (java.net.ProtocolException e) {
            if (!errorWithTrailer.get()) {
                throw e; // a success is never asked twice: it may have changed something
            }
            return sendReadingTrailers(endpoint, path, body, auth);
        }
    }

    /** {@link #send} over {@link HttpURLConnection}, the client's TLS context, kept-alive connections. */
    private Answer sendReadingTrailers(URI endpoint, String path, String body, String auth) throws IOException {
        HttpURLConnection c = (HttpURLConnection) endpoint.resolve(path).toURL().openConnection();
        if (c instanceof HttpsURLConnection tls) {
            tls.setSSLSocketFactory(ssl.getSocketFactory());
        }
        int ms = (int) REQUEST_TIMEOUT.toMillis();
        c.setConnectTimeout(ms);
        c.setReadTimeout(ms);
        c.setRequestMethod("POST");
        c.setDoOutput(true);
        c.setRequestProperty("Content-Type", "application/json");
        if (auth != null) {
            c.setRequestProperty("Authorization", auth);
        }
        try (java.io.OutputStream out = c.getOutputStream()) { // buffered: a 401's body is read like any other
            out.write(body.getBytes(StandardCharsets.UTF_8));
        }
        int status = c.getResponseCode();
        java.io.InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
        if (in == null) {
            return new Answer(status, "");
        }
        try (in) {
            return new Answer(status, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    private HttpRequest request(URI endpoint, String path, String body, String auth) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint.resolve(path))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (auth != null) {
            b.header("Authorization", auth);
        }
        return b.build();
    }

    /** etcd's JSON answer; anything else is an error naming the endpoint and quoting what came. */
    private static JsonNode parse(URI endpoint, int status, String text) {
        try {
            JsonNode node = JSON.readTree(text);
            if (node != null && node.isObject()) {
                return node;
            }
        } catch (IOException e) {
            // told below
        }
        if (text != null && text.contains(GATEWAY_CN)) {
            throw new EtcdException("etcd " + label(endpoint) + ": " + GATEWAY_CN + " (etcd's JSON gateway refuses a"
                    + " client certificate with a CommonName: use one whose subject has no CN)", false, null);
        }
        throw new EtcdException("etcd " + label(endpoint) + ": not an etcd v3 JSON answer (is this etcd's client URL?)"
                + " (got: " + (status == 200 ? "" : "HTTP " + status + " ") + abbreviate(text) + ")", false, null);
    }

    /** What etcd's gateway answers (400, as text) to a client certificate that has a CommonName. */
    private static final String GATEWAY_CN =
            "CommonName of client sending a request against gateway will be ignored and not used as expected";

    /** The endpoint as messages name it: {@code http://127.0.0.1:2379}. */
    private static String label(URI endpoint) {
        return endpoint.toString();
    }

    private static String abbreviate(String text) {
        String t = text == null ? "" : text.strip();
        return t.length() > 200 ? t.substring(0, 200) + "..." : t;
    }

    /** Why a request got no answer, in words: refused, timed out, TLS refused... */
    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            if (root instanceof SSLException) {
                break;
            }
            root = root.getCause();
        }
        // sendAsync's failures come wrapped (a refusal: CompletionException, ConnectException, ClosedChannelException),
        // so each kind is looked for down the causes.
        SocketTimeoutException timedOut = cause(e, SocketTimeoutException.class); // a unary call's (HttpURLConnection)
        if (cause(e, HttpConnectTimeoutException.class) != null
                || timedOut != null && String.valueOf(timedOut.getMessage()).toLowerCase(java.util.Locale.ROOT)
                        .startsWith("connect")) {
            return "connect timed out after " + REQUEST_TIMEOUT.toMillis() + " ms";
        }
        if (cause(e, HttpTimeoutException.class) != null || timedOut != null) {
            return "no answer in " + REQUEST_TIMEOUT.toMillis() + " ms";
        }
        if (cause(e, ConnectException.class) != null) {
            return "connection refused";
        }
        if (root instanceof ClosedChannelException || root instanceof EOFException
                || root instanceof java.net.SocketException) {
            // A kept-alive connection whose member went away: it is noticed when the next request is written.
            return "connection closed";
        }
        if (root instanceof SSLException || e instanceof SSLException) {
            return "TLS: " + root.getMessage();
        }
        String m = root.getMessage();
        return root.getClass().getSimpleName() + (m == null ? "" : ": " + m);
    }

    // ---- JSON of the gateway -----------------------------------------------------------------------------------

    private static ObjectNode putRequest(String key, String value, long lease) {
        ObjectNode put = JSON.createObjectNode().put("key", b64(key)).put("value", b64(value));
        if (lease != 0) {
            put.put("lease", Long.toString(lease));
        }
        return put;
    }

    /** The compare of a CAS: mod revision still {@code modRevision}, or (0) the key does not exist. */
    private static ObjectNode compare(String key, long modRevision) {
        ObjectNode c = JSON.createObjectNode().put("key", b64(key)).put("result", "EQUAL");
        if (modRevision == 0) {
            c.put("target", "CREATE").put("create_revision", "0");
        } else {
            c.put("target", "MOD").put("mod_revision", Long.toString(modRevision));
        }
        return c;
    }

    private static Swap swap(JsonNode answer) {
        return new Swap(answer.path("succeeded").asBoolean(false), revision(answer));
    }

    private static Range range(JsonNode answer) {
        List<KeyValue> kvs = new ArrayList<>();
        JsonNode list = answer.path("kvs");
        if (list instanceof ArrayNode a) {
            for (JsonNode kv : a) {
                kvs.add(keyValue(kv));
            }
        }
        return new Range(revision(answer), kvs);
    }

    private static KeyValue keyValue(JsonNode kv) {
        return new KeyValue(unb64(kv.path("key").asText("")), unb64(kv.path("value").asText("")),
                number(kv, "create_revision"), number(kv, "mod_revision"), number(kv, "version"), number(kv, "lease"));
    }

    private static long revision(JsonNode answer) {
        return number(answer.path("header"), "revision");
    }

    /** An int64 field (a JSON string in the gateway's answers); missing = 0. */
    private static long number(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isMissingNode() || v.isNull() ? 0 : v.asLong(0);
    }

    private static String b64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String unb64(String text) {
        return new String(Base64.getDecoder().decode(text), StandardCharsets.UTF_8);
    }

    /** etcd's end of a prefix range: the prefix with its last byte + 1 (bytes 0xff dropped first); "\0" = all. */
    static String rangeEnd(String prefix) {
        byte[] b = prefix.getBytes(StandardCharsets.UTF_8);
        for (int i = b.length - 1; i >= 0; i--) {
            if (b[i] != (byte) 0xff) {
                byte[] end = Arrays.copyOf(b, i + 1);
                end[i]++;
                return Base64.getEncoder().encodeToString(end);
            }
        }
        return Base64.getEncoder().encodeToString(new byte[] {0});
    }
}
