package dev.fulcrum.proxy;

import io.undertow.connector.PooledByteBuffer;
import io.undertow.server.Connectors;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.ServerConnection;
import io.undertow.server.protocol.http.HttpServerConnection;
import io.undertow.server.protocol.http2.Http2ServerConnection;
import io.undertow.util.AttachmentKey;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.xnio.ChannelListener;
import org.xnio.IoUtils;
import org.xnio.conduits.ConduitStreamSourceChannel;

/**
 * What the proxy keeps per client connection. When the connection closes while an exchange is current (on HTTP/2:
 * while any of its streams' exchanges is), one close listener per connection (not per request, which would pile up on
 * a long keep-alive connection) tells that exchange, so its lease is released and its backend connection closed at
 * once. Also remembers the client's address as text, worked out once per connection rather than once per request.
 *
 * <p>HTTP/2 differs twice. Undertow ends the current exchange of an HTTP/1.1 connection that closes, but no exchange of
 * an HTTP/2 connection's streams: {@link ProxyExchange#streamGone} ends each one. And a client may reset one stream
 * (RST_STREAM: a browser leaving the page, {@code curl --max-time}, a cancelled {@code fetch}) and keep the
 * connection: Undertow then closes that stream's response channel, which wakes the channel's write listener; until the
 * answer takes the channel over, that listener is the watch's, and it ends the exchange the same way.
 *
 * <p>Undertow does not read a connection whose request is running, so on its own a client that hangs up while its
 * request waits on a backend would go unnoticed until the answer. While a request without a body waits on HTTP/1.1
 * (plain or TLS), {@link #probeWhileWaiting} puts a read listener of its own on the connection (nginx watches for the same
 * with EPOLLRDHUP): the end of the stream or a reset closes the connection, which ends the exchange as a client
 * abort; bytes of a pipelined request are handed back to Undertow, which parses them once this exchange is done.
 * No extra system call while nothing arrives. Runs on the connection's I/O thread only.
 */
final class ClientWatch implements ServerConnection.CloseListener {
    private static final AttachmentKey<ClientWatch> KEY = AttachmentKey.create(ClientWatch.class);

    private ProxyExchange current; // touched only on the connection's I/O thread
    /** HTTP/2: the exchanges of the connection's streams that are under way (one I/O thread serves them all). */
    private Set<ProxyExchange> streams;
    private String clientIp;
    private HttpServerConnection connection;
    /** Undertow's read listener, put back when the waiting exchange ends. */
    private ChannelListener<? super ConduitStreamSourceChannel> serverReader;
    private final ChannelListener<ConduitStreamSourceChannel> probe = this::probe;

    static ClientWatch of(HttpServerExchange exchange) {
        ServerConnection c = exchange.getConnection();
        boolean h2 = c instanceof Http2ServerConnection;
        if (!(c instanceof HttpServerConnection) && !h2) {
            return new ClientWatch();
        }
        // an HTTP/2 stream is a connection object of its own, but its attachments and close listeners are the shared
        // connection's: one watch and one close listener per TCP connection, not one per stream piling up there
        ClientWatch w = c.getAttachment(KEY);
        if (w == null) {
            w = new ClientWatch();
            if (h2) {
                w.streams = new HashSet<>();
            } else {
                w.connection = (HttpServerConnection) c;
            }
            c.putAttachment(KEY, w);
            c.addCloseListener(w);
        }
        return w;
    }

    /** The peer's IP address (no port), or 0.0.0.0 when the connection has none. */
    String clientIp(HttpServerExchange exchange) {
        if (clientIp == null) {
            InetSocketAddress a = exchange.getSourceAddress();
            clientIp = ipOf(a);
        }
        return clientIp;
    }

    /** A client's IP address as text (no port), or 0.0.0.0 for none: for the request's record and X-Forwarded-For. */
    static String ipOf(InetSocketAddress a) {
        return a == null ? "0.0.0.0"
                : a.getAddress() != null ? dev.fulcrum.net.IpText.of(a.getAddress()) : a.getHostString();
    }

    /** Reads the connection while the current request waits on a backend (HTTP/1.1, no request body). */
    void probeWhileWaiting() {
        ConduitStreamSourceChannel ch = connection.getChannel().getSourceChannel();
        ChannelListener<? super ConduitStreamSourceChannel> l = ch.getReadListener();
        if (l != probe) {
            serverReader = l;
            ch.setReadListener(probe);
        }
        connection.getOriginalSourceConduit().resumeReads();
    }

    /** The waiting exchange ended: Undertow reads the connection again (before it looks for the next request). */
    void stopProbing() {
        if (connection != null) {
            ConduitStreamSourceChannel ch = connection.getChannel().getSourceChannel();
            if (ch.getReadListener() == probe) {
                ch.setReadListener(serverReader);
            }
        }
    }

    private void probe(ConduitStreamSourceChannel ch) {
        HttpServerConnection c = connection;
        if (c.getExtraBytes() != null) {
            ch.suspendReads(); // bytes of a next request are already waiting: what follows them stays in order, unread
            return;
        }
        PooledByteBuffer p = c.getByteBufferPool().allocate();
        boolean handedBack = false;
        try {
            int n = c.getOriginalSourceConduit().read(p.getBuffer());
            if (n == 0) {
                return;
            }
            ch.suspendReads();
            if (n < 0) {
                IoUtils.safeClose(c); // the client hung up: closed() below ends the exchange as a client abort
                return;
            }
            p.getBuffer().flip();
            c.ungetRequestBytes(p); // a pipelined request: Undertow's, once this exchange is done
            handedBack = true;
        } catch (IOException e) {
            IoUtils.safeClose(c); // a reset
        } finally {
            if (!handedBack) {
                p.close();
            }
        }
    }

    void watch(ProxyExchange e, HttpServerExchange exchange) {
        if (streams != null) {
            streams.add(e);
            Connectors.getConduitSinkChannel(exchange).getWriteSetter().set(ch -> {
                if (!ch.isOpen()) {
                    e.streamGone(); // the stream was reset before its answer began
                }
            });
        } else {
            current = e;
        }
    }

    void unwatch(ProxyExchange e) {
        if (streams != null) {
            streams.remove(e);
        } else if (current == e) {
            current = null;
        }
    }

    @Override
    public void closed(ServerConnection connection) {
        if (streams != null) {
            List<ProxyExchange> all = List.copyOf(streams);
            streams.clear();
            all.forEach(ProxyExchange::streamGone);
            return;
        }
        ProxyExchange e = current;
        current = null;
        if (e != null) {
            e.clientClosed();
        }
    }
}
