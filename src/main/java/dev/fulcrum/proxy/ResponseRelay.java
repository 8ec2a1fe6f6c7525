package dev.fulcrum.proxy;

import dev.fulcrum.engine.Outcome;
import io.undertow.connector.ByteBufferPool;
import io.undertow.util.Transfer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channel;
import org.xnio.ChannelExceptionHandler;
import org.xnio.ChannelListeners;
import org.xnio.IoUtils;
import org.xnio.channels.StreamSinkChannel;
import org.xnio.channels.StreamSourceChannel;

/**
 * Carries a backend's answer body to the client, once its head is in the client exchange: whole, when it came with
 * the head (the common case for small answers), or streamed from the backend connection. Says when the answer is all
 * out ({@link ProxyExchange#answerWritten}, {@link ProxyExchange#answerStreamed}) and which side broke when one did
 * ({@link ProxyExchange#broke}: a failed read is the backend's doing, a reset mid-body counting against it; a failed
 * write, the client's). How the exchange then ends is the exchange's to decide.
 *
 * <p>Runs on the exchange's I/O thread.
 */
final class ResponseRelay {
    private ResponseRelay() {
    }

    /**
     * Writes a body that came whole with the backend's head, at once and with the response head (one system call,
     * usually all of it): {@code body} is the backend connection's read buffer and is valid only now, so what the
     * client's socket does not take yet is copied and written when it drains.
     */
    static void sendWhole(ProxyExchange x, StreamSinkChannel out, ByteBuffer body) {
        try {
            while (body.hasRemaining() && out.write(body) > 0) {
                // the socket took some: offer the rest
            }
        } catch (IOException e) {
            x.broke(Outcome.CLIENT_ABORT, e);
            return;
        }
        if (!body.hasRemaining()) {
            x.answerWritten();
            return;
        }
        ByteBuffer rest = ByteBuffer.allocate(body.remaining()).put(body).flip();
        out.getWriteSetter().set(ch -> {
            try {
                while (rest.hasRemaining()) {
                    if (ch.write(rest) == 0) {
                        return; // wait for the next write-ready
                    }
                }
            } catch (IOException e) {
                ch.suspendWrites();
                x.broke(Outcome.CLIENT_ABORT, e);
                return;
            }
            ch.suspendWrites();
            ch.getWriteSetter().set(null);
            x.answerWritten();
        });
        out.resumeWrites();
    }

    /** Streams the body from {@code fromBackend}, which reads -1 at its end, into {@code toClient}. */
    static void stream(ProxyExchange x, StreamSourceChannel fromBackend, StreamSinkChannel toClient,
                       ByteBufferPool buffers) {
        ChannelExceptionHandler<Channel> onError =
                (ch, e) -> x.broke(ch == fromBackend ? Outcome.CONNECT_FAILURE : Outcome.CLIENT_ABORT, e);
        Transfer.initiateTransfer(fromBackend, toClient, null, x::answerStreamed, onError, onError, buffers);
    }

    /**
     * The backend has nothing more for now: what it sent goes out. An HTTP/2 stream holds it until a flush, so
     * server-sent events over https would otherwise arrive all at the end.
     */
    static void flush(StreamSinkChannel toClient) {
        try {
            toClient.flush();
        } catch (IOException e) {
            // the transfer's next write reports it
        }
    }

    /** Ends a sink: shutdown and flush, finishing the flush asynchronously if it cannot complete now. */
    static void finishWrites(StreamSinkChannel channel) {
        try {
            channel.shutdownWrites();
            if (!channel.flush()) {
                channel.getWriteSetter().set(ChannelListeners.flushingChannelListener(
                        ch -> {
                            ch.suspendWrites();
                            ch.getWriteSetter().set(null);
                        }, ChannelListeners.closingChannelExceptionHandler()));
                channel.resumeWrites();
            } else {
                channel.getWriteSetter().set(null);
            }
        } catch (IOException e) {
            IoUtils.safeClose(channel);
        }
    }
}
