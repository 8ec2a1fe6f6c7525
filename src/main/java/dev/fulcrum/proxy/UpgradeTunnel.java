package dev.fulcrum.proxy;

import io.undertow.connector.ByteBufferPool;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Transfer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import java.nio.channels.FileChannel;
import org.xnio.ChannelExceptionHandler;
import org.xnio.ChannelListener;
import org.xnio.ChannelListeners;
import org.xnio.IoUtils;
import org.xnio.StreamConnection;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.channels.StreamSourceChannel;
import org.xnio.conduits.AbstractStreamSinkConduit;
import org.xnio.conduits.ConduitStreamSinkChannel;
import org.xnio.conduits.StreamSinkConduit;

/**
 * HTTP/1.1 Upgrade (WebSocket): once the backend's 101 is flushed to the client, the two connections are spliced,
 * bytes going each way as they come, until either side closes; then both close. The exchange is told when the
 * tunnel opens ({@link ProxyExchange#tunnelOpened}: its own watch on the client's connection ends, the tunnel's close
 * listeners take over) and when it closes ({@link ProxyExchange#tunnelClosed}: the lease the tunnel held goes back,
 * and the connection is logged with the bytes that went each way, counted on both sinks).
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
            Counting toClient = Counting.on(client.getSinkChannel());
            Counting toBackend = Counting.on(b.getSinkChannel());
            boolean[] told = {false};
            ChannelListener<StreamConnection> closed = ch -> {
                IoUtils.safeClose(client, b);
                if (!told[0]) { // both connections' close listeners run; the tunnel ends once
                    told[0] = true;
                    x.tunnelClosed(toBackend.bytes(), toClient.bytes());
                    tunnels.remove(x);
                }
            };
            client.setCloseListener(closed);
            b.setCloseListener(closed);
            x.tunnelOpened();
            if (!b.isOpen()) {
                closed.handleEvent(b);
                return;
            }
            tunnels.add(x, client, b, toClient, toBackend);
            ChannelExceptionHandler<Channel> close = (ch, e) -> IoUtils.safeClose(client, b);
            splice(b.getSourceChannel(), client.getSinkChannel(), close, buffers);
            splice(client.getSourceChannel(), b.getSinkChannel(), close, buffers);
        });
        exchange.endExchange();
    }

    /**
     * Counts the bytes written through a connection's sink, for the tunnel's log line and record. Written by the sink's
     * I/O thread alone; volatile so {@link Tunnels#list} can read it from another.
     */
    static final class Counting extends AbstractStreamSinkConduit<StreamSinkConduit> {
        private volatile long bytes;

        private Counting(StreamSinkConduit next) {
            super(next);
        }

        static Counting on(ConduitStreamSinkChannel sink) {
            Counting c = new Counting(sink.getConduit());
            sink.setConduit(c);
            return c;
        }

        long bytes() {
            return bytes;
        }

        private long counted(long n) {
            if (n > 0) {
                bytes += n; // one writer: the read and the write of the sum cannot interleave with another
            }
            return n;
        }

        @Override
        public int write(ByteBuffer src) throws IOException {
            return (int) counted(super.write(src));
        }

        @Override
        public long write(ByteBuffer[] srcs, int offs, int len) throws IOException {
            return counted(super.write(srcs, offs, len));
        }

        @Override
        public int writeFinal(ByteBuffer src) throws IOException {
            return (int) counted(super.writeFinal(src));
        }

        @Override
        public long writeFinal(ByteBuffer[] srcs, int offs, int len) throws IOException {
            return counted(super.writeFinal(srcs, offs, len));
        }

        @Override
        public long transferFrom(FileChannel src, long position, long count) throws IOException {
            return counted(super.transferFrom(src, position, count));
        }

        @Override
        public long transferFrom(StreamSourceChannel source, long count, ByteBuffer throughBuffer) throws IOException {
            return counted(super.transferFrom(source, count, throughBuffer));
        }
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
