package dev.fulcrum.admin;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One server-sent event stream of a remote admin API, read by a daemon thread of its own until closed: each event
 * ({@code event:} and {@code data:} lines up to an empty line) goes to the handler; comment lines (": connected",
 * ": keep-alive") only show the stream is alive. When the stream drops, or the server refuses it, the thread connects
 * again with exponential back-off ({@value #MIN_BACKOFF_MS} ms doubling to {@value #MAX_BACKOFF_MS} ms) and tells the
 * handler when it dropped and when it is back, which decides what a gap means (events lost: re-read the state;
 * requests lost: nothing to do).
 */
final class SseStream implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SseStream.class);
    static final long MIN_BACKOFF_MS = 100;
    static final long MAX_BACKOFF_MS = 5_000;

    interface Handler {
        /** The server sent its first line: the stream is registered. {@code again} on every connection but the first. */
        void connected(boolean again);

        /** One event; a handler that cannot read it throws {@link UncheckedIOException}, and the event is skipped. */
        void event(String type, String data);

        /**
         * A connection that had got its first line ended ({@code why}, in words), before {@link #close()}: the
         * stream tries again; events until it is back are lost.
         */
        default void disconnected(String why) {
        }
    }

    private final HttpClient http;
    private final Supplier<HttpRequest> request;
    private final String what;
    private final Handler handler;
    private final Thread thread;
    private volatile InputStream body;
    private volatile boolean closed;
    /** The stream thread's own: whether any connection, and the current one, got its first line. */
    private boolean everConnected;
    private boolean connectedNow;

    /** @param what names the stream in logs and its thread, e.g. {@code events of http://10.0.0.5:8081} */
    SseStream(HttpClient http, Supplier<HttpRequest> request, String threadName, String what, Handler handler) {
        this.http = http;
        this.request = request;
        this.what = what;
        this.handler = handler;
        this.thread = new Thread(this::loop, threadName);
        thread.setDaemon(true);
    }

    SseStream start() {
        thread.start();
        return this;
    }

    private void loop() {
        long backoff = MIN_BACKOFF_MS;
        while (!closed) {
            String why = "the stream ended";
            try {
                HttpResponse<InputStream> r = http.send(request.get(), HttpResponse.BodyHandlers.ofInputStream());
                if (r.statusCode() != 200) {
                    try (InputStream in = r.body()) {
                        var e = HttpEngineClient.error(r.statusCode(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
                        LOG.warn("{} refused: {} {}", what, e.status(), e.getMessage());
                    }
                } else {
                    body = r.body();
                    if (closed) {
                        return;
                    }
                    read(new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8)));
                }
            } catch (IOException | RuntimeException e) {
                if (!closed) {
                    LOG.debug("{} dropped: {}", what, e.toString());
                }
                why = "the connection broke" + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")");
            } catch (InterruptedException e) {
                return;
            } finally {
                boolean wasUp = connectedNow;
                if (wasUp) {
                    backoff = MIN_BACKOFF_MS; // it was up: the next try comes soon, not after the last back-off
                }
                connectedNow = false;
                closeBody();
                if (wasUp && !closed) {
                    try {
                        handler.disconnected(why);
                    } catch (RuntimeException e) {
                        LOG.warn("{}: telling of the drop failed", what, e); // the stream goes on trying regardless
                    }
                }
            }
            if (closed) {
                return;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(backoff); // back-off between reconnects, not a wait for an outcome
            } catch (InterruptedException e) {
                return;
            }
            backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
        }
    }

    /**
     * Reads one connection's events until it ends or breaks. Its first line tells the handler it is connected (the
     * server registers a client before its first line, so nothing after it is missed), as a reconnection when an
     * earlier connection got that far, however that one ended.
     */
    private void read(BufferedReader reader) throws IOException {
        String type = null;
        StringBuilder data = new StringBuilder();
        for (String line; (line = reader.readLine()) != null; ) {
            if (!connectedNow) {
                connectedNow = true;
                handler.connected(everConnected);
                everConnected = true;
            }
            if (line.isEmpty()) {
                if (data.length() > 0) {
                    try {
                        handler.event(type, data.toString());
                    } catch (UncheckedIOException bad) {
                        // one garbled event is skipped; reconnecting would lose more than it
                        LOG.warn("{}: {}", what, bad.getMessage());
                    }
                }
                type = null;
                data.setLength(0);
            } else if (line.startsWith("event:")) {
                type = field(line, 6);
            } else if (line.startsWith("data:")) {
                if (data.length() > 0) {
                    data.append('\n');
                }
                data.append(field(line, 5));
            }
        }
    }

    private static String field(String line, int from) {
        String v = line.substring(from);
        return v.startsWith(" ") ? v.substring(1) : v;
    }

    private void closeBody() {
        InputStream s = body;
        body = null;
        if (s != null) {
            try {
                s.close();
            } catch (IOException alreadyBroken) {
                // nothing left to close
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        closeBody(); // unblocks the reader
        thread.interrupt();
    }
}
