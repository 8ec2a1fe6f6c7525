package dev.fulcrum.health;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Accepts connections and never answers (nor closes them): a hung process. */
final class HungServer implements AutoCloseable {
    private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    private final List<Socket> held = new CopyOnWriteArrayList<>();
    private final Thread acceptor;

    HungServer() throws IOException {
        this("");
    }

    /** Writes {@code prefix} on each connection, then goes silent. */
    HungServer(String prefix) throws IOException {
        acceptor = new Thread(() -> {
            while (!socket.isClosed()) {
                try {
                    Socket s = socket.accept();
                    held.add(s);
                    s.getOutputStream().write(prefix.getBytes(StandardCharsets.US_ASCII));
                    s.getOutputStream().flush();
                } catch (IOException e) {
                    return;
                }
            }
        }, "hung-server");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    int accepted() {
        return held.size();
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : held) {
            s.close();
        }
    }
}
