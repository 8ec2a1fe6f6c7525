package dev.fulcrum.proxy;

import io.undertow.server.HttpServerExchange;
import io.undertow.server.ServerConnection;
import io.undertow.util.AttachmentKey;

/**
 * Notices a client that hangs up while its request waits on a backend. One close listener per client
 * connection (not per request, which would pile up on a long keep-alive connection) tells whichever
 * exchange is current, so its lease is released and its backend connection closed at once.
 */
final class ClientWatch implements ServerConnection.CloseListener {
    private static final AttachmentKey<ClientWatch> KEY = AttachmentKey.create(ClientWatch.class);

    private ProxyExchange current; // touched only on the connection's I/O thread

    static ClientWatch of(HttpServerExchange exchange) {
        ServerConnection c = exchange.getConnection();
        ClientWatch w = c.getAttachment(KEY);
        if (w == null) {
            w = new ClientWatch();
            c.putAttachment(KEY, w);
            c.addCloseListener(w);
        }
        return w;
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
