package dev.fulcrum.proxy;

import dev.fulcrum.engine.Backend;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;

/**
 * Open upgraded connections (WebSockets) by exchange, so a drain past its deadline or a shutdown can close
 * them cleanly; each holds its backend's in-flight slot while open.
 */
final class Tunnels {
    private record Open(Backend backend, StreamConnection client, StreamConnection backendSide) {
    }

    private final Map<ProxyExchange, Open> open = new ConcurrentHashMap<>();

    void add(ProxyExchange e, StreamConnection client, StreamConnection backendSide) {
        open.put(e, new Open(e.backend(), client, backendSide));
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
}
