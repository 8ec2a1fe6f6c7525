package dev.fulcrum.proxy;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Transfer;
import java.nio.channels.Channel;
import org.xnio.ChannelExceptionHandler;
import org.xnio.ChannelListeners;
import org.xnio.channels.StreamSinkChannel;

/**
 * Pumps a request body from the client to the backend, once the request head is on the wire, and says which side
 * failed: a failed write is the backend's (it reset, or stopped reading to answer early), a failed read the client's
 * (it hung up or cut its body short). What follows from either is the exchange's to decide
 * ({@link ProxyExchange#uploadFailed}, {@link ProxyExchange#clientBodyFailed}); so is what follows the body's end
 * ({@link ProxyExchange#uploaded}: the read deadline counts from there, so a long upload is not a slow backend).
 *
 * <p>Runs on the exchange's I/O thread. Every notice carries its attempt's number, so one from an attempt the
 * exchange has moved on from acts on nothing.
 */
final class RequestUpload {
    private RequestUpload() {
    }

    /** Starts the pump into {@code toBackend}, the channel {@code c} gave for the body of attempt {@code attempt}. */
    static void start(ProxyExchange x, HttpServerExchange exchange, BackendConnection c, StreamSinkChannel toBackend,
                      int attempt) {
        ChannelExceptionHandler<Channel> backendFailed = (ch, e) -> x.uploadFailed(attempt, e);
        ChannelExceptionHandler<Channel> clientFailed = (ch, e) -> x.clientBodyFailed(attempt, e);
        Transfer.initiateTransfer(exchange.getRequestChannel(), toBackend, ChannelListeners.closingChannelListener(),
                sink -> c.endRequestBody(() -> x.uploaded(attempt), backendFailed),
                clientFailed, backendFailed, exchange.getConnection().getByteBufferPool());
    }

    /**
     * Stops the pump for good, the answer being out before the body: it must not take reads back from Undertow, which
     * drains the rest of the body from the client.
     */
    static void stop(StreamSinkChannel toBackend) {
        toBackend.suspendWrites();
        toBackend.getWriteSetter().set(null);
    }
}
