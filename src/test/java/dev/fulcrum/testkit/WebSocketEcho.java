package dev.fulcrum.testkit;

import io.undertow.Handlers;
import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import io.undertow.websockets.core.AbstractReceiveListener;
import io.undertow.websockets.core.BufferedTextMessage;
import io.undertow.websockets.core.WebSocketChannel;
import io.undertow.websockets.core.WebSockets;
import java.net.InetSocketAddress;

/**
 * A WebSocket backend on loopback that answers every text message {@code m} with {@code "echo: " + m}, on path
 * {@code /ws}: what the tunnel tests put behind the proxy.
 */
public final class WebSocketEcho implements AutoCloseable {
    private final Undertow server;

    public WebSocketEcho() {
        server = Undertow.builder().addHttpListener(0, "127.0.0.1").setHandler(handler()).build();
        server.start();
    }

    /** The echo as a handler, for a test that mounts it on a server of its own. */
    public static HttpHandler handler() {
        return Handlers.path().addPrefixPath("/ws", Handlers.websocket((exchange, channel) -> {
            channel.getReceiveSetter().set(new AbstractReceiveListener() {
                @Override
                protected void onFullTextMessage(WebSocketChannel ch, BufferedTextMessage message) {
                    WebSockets.sendText("echo: " + message.getData(), ch, null);
                }
            });
            channel.resumeReceives();
        }));
    }

    public int port() {
        return ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    }

    /** {@code http://127.0.0.1:PORT}, for a backend's url. */
    public String url() {
        return "http://127.0.0.1:" + port();
    }

    @Override
    public void close() {
        server.stop();
    }
}
