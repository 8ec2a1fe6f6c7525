package dev.fulcrum.proxy;

import io.undertow.connector.ByteBufferPool;
import io.undertow.server.ExchangeCompletionListener;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.protocol.http.HttpServerConnection;
import io.undertow.util.HeaderMap;
import io.undertow.util.HttpString;
import io.undertow.util.SameThreadExecutor;
import java.util.Deque;
import org.xnio.IoUtils;
import org.xnio.XnioIoThread;
import org.xnio.channels.StreamSinkChannel;

/** A request Undertow's HTTP/1.1 or HTTP/2 server side parsed: each value is its exchange's. */
final class UndertowRequest extends ExchangeRequest {
    private final HttpServerExchange exchange;
    /** The client's connection, watched for its hang-up from the exchange's start ({@link #watch}). */
    private ClientWatch watch;

    UndertowRequest(HttpServerExchange exchange) {
        super(null);
        this.exchange = exchange;
    }

    UndertowRequest(HttpServerExchange exchange, String path) {
        super(path);
        this.exchange = exchange;
    }

    @Override
    public String queryParam(String name) {
        Deque<String> v = exchange.getQueryParameters().get(name);
        return v == null || v.isEmpty() ? null : v.getFirst();
    }

    @Override
    HttpServerExchange exchange() {
        return exchange;
    }

    @Override
    String peerIp() {
        return ClientWatch.of(exchange).clientIp(exchange);
    }

    @Override
    HttpString getRequestMethod() {
        return exchange.getRequestMethod();
    }

    @Override
    String getRequestURI() {
        return exchange.getRequestURI();
    }

    @Override
    boolean isHostIncludedInRequestURI() {
        return exchange.isHostIncludedInRequestURI();
    }

    @Override
    String getRequestPath() {
        return exchange.getRequestPath();
    }

    @Override
    String getQueryString() {
        return exchange.getQueryString();
    }

    @Override
    HttpString getProtocol() {
        return exchange.getProtocol();
    }

    @Override
    String getRequestScheme() {
        return exchange.getRequestScheme();
    }

    @Override
    HeaderMap getRequestHeaders() {
        return exchange.getRequestHeaders();
    }

    @Override
    long getRequestContentLength() {
        return exchange.getRequestContentLength();
    }

    @Override
    long getRequestStartTime() {
        return exchange.getRequestStartTime();
    }

    @Override
    boolean isRequestComplete() {
        return exchange.isRequestComplete();
    }

    @Override
    XnioIoThread getIoThread() {
        return exchange.getIoThread();
    }

    @Override
    boolean http1() {
        return exchange.getConnection() instanceof HttpServerConnection;
    }

    @Override
    boolean secure() {
        return exchange.getConnection().getSslSessionInfo() != null;
    }

    @Override
    boolean clientOpen() {
        return exchange.getConnection().isOpen();
    }

    @Override
    void closeClient() {
        IoUtils.safeClose(exchange.getConnection());
    }

    @Override
    ByteBufferPool buffers() {
        return exchange.getConnection().getByteBufferPool();
    }

    @Override
    void dispatch(Runnable task) {
        exchange.dispatch(SameThreadExecutor.INSTANCE, task);
    }

    @Override
    void addExchangeCompleteListener(ExchangeCompletionListener l) {
        exchange.addExchangeCompleteListener(l);
    }

    @Override
    void watch(ProxyExchange e) {
        watch = ClientWatch.of(exchange);
        watch.watch(e, exchange);
    }

    @Override
    void unwatch(ProxyExchange e) {
        watch.unwatch(e);
    }

    @Override
    void probeWhileWaiting() {
        watch.probeWhileWaiting();
    }

    @Override
    void stopProbing() {
        watch.stopProbing();
    }

    @Override
    HeaderMap getResponseHeaders() {
        return exchange.getResponseHeaders();
    }

    @Override
    int getStatusCode() {
        return exchange.getStatusCode();
    }

    @Override
    void setStatusCode(int status) {
        exchange.setStatusCode(status);
    }

    @Override
    void setReasonPhrase(String reason) {
        exchange.setReasonPhrase(reason);
    }

    @Override
    void setPersistent(boolean persistent) {
        exchange.setPersistent(persistent);
    }

    @Override
    boolean isResponseStarted() {
        return exchange.isResponseStarted();
    }

    @Override
    StreamSinkChannel getResponseChannel() {
        return exchange.getResponseChannel();
    }

    @Override
    void send(String text) {
        exchange.getResponseSender().send(text);
    }

    @Override
    long getResponseBytesSent() {
        return exchange.getResponseBytesSent();
    }

    @Override
    void endExchange() {
        exchange.endExchange();
    }
}
