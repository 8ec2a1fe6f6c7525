package dev.fulcrum.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An HTTP backend listening on ONE loopback address, as a dev server started on {@code localhost} does when its
 * platform resolved the name to {@code ::1} alone (Node 17+, Vite) or to {@code 127.0.0.1} alone. Its port is one
 * nothing listens on at the other loopback address, so {@code http://localhost:PORT} reaches it only where that
 * address is tried. Answers every request {@code 200} with its own address as the body and records each request's
 * {@code Host} header; plain sockets, one thread per connection, keep-alive.
 *
 * <p>Example: {@code LoopbackListener.v6Only()} on a machine without {@code ::1} skips the test, naming why.
 */
public final class LoopbackListener implements AutoCloseable {
    /** The {@code Host} header of each request, in order. */
    public final List<String> hosts = new CopyOnWriteArrayList<>();
    private final ServerSocket server;
    private final String body;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "loopback-listener");
        t.setDaemon(true);
        return t;
    });

    private LoopbackListener(ServerSocket server) {
        this.server = server;
        this.body = server.getInetAddress().getHostAddress();
        threads.execute(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    threads.execute(() -> serve(s));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    /** Listens on {@code ::1} alone; skips the calling test where the machine has no IPv6 loopback. */
    public static LoopbackListener v6Only() throws IOException {
        InetAddress v6 = InetAddress.getByName("::1");
        InetAddress v4 = InetAddress.getByName("127.0.0.1");
        try {
            return on(v6, v4);
        } catch (IOException e) {
            assumeTrue(false, "this machine has no IPv6 loopback address ::1 to listen on (" + e + "): `ip -6 addr` "
                    + "lists none on lo");
            throw e;
        }
    }

    /** Listens on {@code 127.0.0.1} alone. */
    public static LoopbackListener v4Only() throws IOException {
        InetAddress v4 = InetAddress.getByName("127.0.0.1");
        InetAddress v6 = InetAddress.getByName("::1");
        return on(v4, v6);
    }

    /** On {@code address}, at a port where nothing answers on {@code other}. */
    private static LoopbackListener on(InetAddress address, InetAddress other) throws IOException {
        for (int i = 0; i < 20; i++) {
            ServerSocket s = new ServerSocket();
            s.bind(new InetSocketAddress(address, 0), 50);
            if (!answers(new InetSocketAddress(other, s.getLocalPort()))) {
                return new LoopbackListener(s);
            }
            s.close(); // another process has that port on the other address: a fresh one
        }
        throw new IOException("no port free on both loopback addresses after 20 tries");
    }

    private static boolean answers(InetSocketAddress a) {
        try (Socket s = new Socket()) {
            s.connect(a, 1000);
            return true;
        } catch (IOException e) {
            return false; // refused, or no route to it
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** The backend URL a developer writes for it. */
    public String localhostUrl() {
        return "http://localhost:" + port();
    }

    /** The body of every answer: the address listened on, {@code 127.0.0.1} or {@code 0:0:0:0:0:0:0:1}. */
    public String body() {
        return body;
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            String head;
            while ((head = readHead(in)) != null) {
                for (String line : head.split("\r\n")) {
                    if (line.regionMatches(true, 0, "Host:", 0, 5)) {
                        hosts.add(line.substring(5).trim());
                    }
                }
                byte[] b = body.getBytes(StandardCharsets.US_ASCII);
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + b.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(b);
                out.flush();
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    /** A request head without its blank line, or null at the end of the stream. GETs only: no body follows. */
    private static String readHead(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        int c;
        while ((c = in.read()) >= 0) {
            b.append((char) c);
            if (b.length() >= 4 && b.lastIndexOf("\r\n\r\n") == b.length() - 4) {
                return b.substring(0, b.length() - 4);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        server.close();
        threads.shutdownNow();
    }
}
