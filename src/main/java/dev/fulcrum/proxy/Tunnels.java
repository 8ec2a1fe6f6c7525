package dev.fulcrum.proxy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.requests.RequestSample;
import dev.fulcrum.requests.RequestStream;
import dev.fulcrum.time.SystemClock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;

/**
 * Open upgraded connections (WebSockets) by exchange, so a drain past its deadline or a shutdown can close
 * them cleanly; each holds its backend's in-flight slot while open. {@link #list} shows them as they stand, for the
 * window's Requests view and {@code GET /api/tunnels}.
 */
final class Tunnels {
    /** Tunnels {@link #list} returns at most, the newest: more than a person reads in a list (a guess). */
    static final int MAX_LISTED = 1000;

    /**
     * One open tunnel: its ends, and the counters of the bytes written towards each.
     *
     * @param seq the order it opened in, which names it in the listing ({@code tunnel:7})
     */
    private record Open(long seq, Backend backend, StreamConnection client, StreamConnection backendSide,
                        UpgradeTunnel.Counting toClient, UpgradeTunnel.Counting toBackend) {
    }

    private final Map<ProxyExchange, Open> open = new ConcurrentHashMap<>();
    private final AtomicLong opened = new AtomicLong();

    void add(ProxyExchange e, StreamConnection client, StreamConnection backendSide, UpgradeTunnel.Counting toClient,
             UpgradeTunnel.Counting toBackend) {
        open.put(e, new Open(opened.incrementAndGet(), e.backend(), client, backendSide, toClient, toBackend));
    }

    void remove(ProxyExchange e) {
        open.remove(e);
    }

    int count() {
        return open.size();
    }

    /** Closes the tunnels to one backend (null = all). */
    void close(String backendId) {
        for (Open o : open.values()) {
            if (backendId == null || o.backend().id().equals(backendId)) {
                IoUtils.safeClose(o.client(), o.backendSide());
            }
        }
    }

    /**
     * The open tunnels, newest first (at most {@link #MAX_LISTED}), each as its record would read if it closed now:
     * status 101, its life so far, the bytes each way so far; named {@code tunnel:N} in the order they opened.
     * Written through the same {@link RequestRecords#writeTunnel} as the record at the close, into a stream of this
     * call's own, so the two read alike. Runs on any thread: what it reads of an exchange was set before the tunnel
     * opened, and the byte counters are volatile.
     */
    List<RequestSample> list() {
        List<Map.Entry<ProxyExchange, Open>> now = new ArrayList<>(open.entrySet());
        now.sort(Comparator.comparingLong((Map.Entry<ProxyExchange, Open> e) -> e.getValue().seq()).reversed());
        if (now.size() > MAX_LISTED) {
            now = now.subList(0, MAX_LISTED);
        }
        if (now.isEmpty()) {
            return List.of();
        }
        RequestStream scratch = new RequestStream(now.size(), RequestRecords.HEADERS);
        long at = SystemClock.nanoTime();
        for (Map.Entry<ProxyExchange, Open> e : now) {
            e.getKey().recordTunnel(scratch, at, e.getValue().toBackend().bytes(), e.getValue().toClient().bytes());
        }
        List<RequestSample> written = new ArrayList<>(now.size());
        scratch.fromOldest().poll(written::add);
        List<RequestSample> out = new ArrayList<>(written.size());
        for (int i = 0; i < written.size(); i++) {
            out.add(named(written.get(i), "tunnel:" + now.get(i).getValue().seq()));
        }
        return out;
    }

    private static RequestSample named(RequestSample r, String id) {
        return new RequestSample(id, r.startMillis(), r.pool(), r.method(), r.path(), r.query(), r.scheme(),
                r.protocol(), r.client(), r.key(), r.keyHash(), r.attempts(), r.backend(), r.status(), r.bytesIn(),
                r.bytesOut(), r.latencyMs(), r.retried(), r.sticky(), r.spilled(), r.refused(), r.upgraded(),
                r.requestHeaders(), r.responseHeaders(), r.decision());
    }
}
