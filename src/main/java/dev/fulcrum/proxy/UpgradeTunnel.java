package dev.fulcrum.proxy;

import io.undertow.connector.ByteBufferPool;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Transfer;
import java.nio.channels.Channel;
import org.xnio.ChannelExceptionHandler;
import org.xnio.ChannelListener;
import org.xnio.ChannelListeners;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.channels.StreamSourceChannel;

/**
 * HTTP/1.1 Upgrade (WebSocket): once the backend's 101 is flushed to the client, the two connections are spliced,
 * bytes going each way as they come, until either side closes; then both close. The exchange is told when the
 * tunnel opens ({@link ProxyExchange#tunnelOpened}: its own watch on the client's connection ends, the tunnel's close
 * listeners take over) and when it closes ({@link ProxyExchange#tunnelClosed}: the lease the tunnel held goes back).
 * An open tunnel is listed in {@link Tunnels}, so a drain past its deadline or a shutdown can close it.
 */
final class UpgradeTunnel {
    private UpgradeTunnel() {
    }

    /** Agrees to the upgrade on {@code exchange} (its 101 head already set) and ends the exchange, which sends it. */
    static void open(ProxyExchange x, HttpServerExchange exchange, BackendConnection c, Tunnels tunnels) {
        ByteBufferPool buffers = exchange.getConnection().getByteBufferPool();
        exchange.upgradeChannel((StreamConnection client, HttpServerExchange ex) -> {
            StreamConnection b = c.upgrade();
            ChannelListener<StreamConnection> closed = ch -> {
                IoUtils.safeClose(client, b);
                x.tunnelClosed();
                tunnels.remove(x);
            };
            client.setCloseListener(closed);
            b.setCloseListener(closed);
            x.tunnelOpened();
            if (!b.isOpen()) {
                closed.handleEvent(b);
                return;
            }
            tunnels.add(x, client, b);
            ChannelExceptionHandler<Channel> close = (ch, e) -> IoUtils.safeClose(client, b);
            splice(b.getSourceChannel(), client.getSinkChannel(), close, buffers);
            splice(client.getSourceChannel(), b.getSinkChannel(), close, buffers);
        });
        exchange.endExchange();
    }

    private static void splice(StreamSourceChannel from, StreamSinkChannel to, ChannelExceptionHandler<Channel> onError,
                               ByteBufferPool buffers) {
        Transfer.initiateTransfer(from, to, ChannelListeners.closingChannelListener(),
                ChannelListeners.writeShutdownChannelListener(ChannelListeners.flushingChannelListener(
                        ChannelListeners.closingChannelListener(), ChannelListeners.closingChannelExceptionHandler()),
                        ChannelListeners.closingChannelExceptionHandler()),
                onError, onError, buffers);
    }
}
