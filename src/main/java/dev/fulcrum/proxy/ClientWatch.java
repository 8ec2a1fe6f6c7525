package dev.fulcrum.proxy;

import io.undertow.server.HttpServerExchange;
import io.undertow.server.ServerConnection;
import io.undertow.server.protocol.http.HttpServerConnection;
import io.undertow.util.AttachmentKey;
import java.net.InetSocketAddress;

/**
 * What the proxy keeps per HTTP/1.x client connection. When the connection closes while an exchange is current,
 * one close listener per connection (not per request, which would pile up on a long keep-alive connection) tells
 * that exchange, so its lease is released and its backend connection closed at once. It hears of the closes the
 * server notices: a failed write or read, an upload cut short, the proxy closing it. A client that only hangs up
 * while its request waits on a backend is not noticed before the answer (or readMs): Undertow does not read a
 * connection whose request is running (RELIABILITY, still open). Also remembers the client's address as text,
 * worked out once per connection rather than once per request.
 */
final class ClientWatch implements ServerConnection.CloseListener {
    private static final AttachmentKey<ClientWatch> KEY = AttachmentKey.create(ClientWatch.class);

    private ProxyExchange current; // touched only on the connection's I/O thread
    private String clientIp;

    static ClientWatch of(HttpServerExchange exchange) {
        ServerConnection c = exchange.getConnection();
        if (!(c instanceof HttpServerConnection)) {
            // an HTTP/2 stream is a connection object of its own, and its close listeners go onto the shared
            // connection's list: one per request would pile up there for the connection's life. A stream's
            // exchange learns of a hang-up when its answer cannot be written, within the read timeout at the latest
            return new ClientWatch();
        }
        ClientWatch w = c.getAttachment(KEY);
        if (w == null) {
            w = new ClientWatch();
            c.putAttachment(KEY, w);
            c.addCloseListener(w);
        }
        return w;
    }

    /** The peer's IP address (no port), or 0.0.0.0 when the connection has none. */
    String clientIp(HttpServerExchange exchange) {
        if (clientIp == null) {
            InetSocketAddress a = exchange.getSourceAddress();
            clientIp = a == null ? "0.0.0.0" : a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        }
        return clientIp;
    }

    void watch(ProxyExchange e) {
        current = e;
    }

    void unwatch(ProxyExchange e) {
        if (current == e) {
            current = null;
        }
    }

    @Override
    public void closed(ServerConnection connection) {
        ProxyExchange e = current;
        current = null;
        if (e != null) {
            e.clientClosed();
        }
    }
}
