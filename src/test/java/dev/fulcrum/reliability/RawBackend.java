package dev.fulcrum.reliability;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A misbehaving backend on a loopback port, written on plain sockets so it can do what no HTTP server
 * would: accept and never answer, reset in the middle of a body, or stream forever. Each accepted
 * connection runs {@link Behaviour} on its own thread.
 */
final class RawBackend implements AutoCloseable {
    interface Behaviour {
        void serve(Socket s) throws Exception;
    }

    final AtomicInteger accepted = new AtomicInteger();
    private final ServerSocket server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "raw-backend");
        t.setDaemon(true);
        return t;
    });
    private final List<Socket> open = new CopyOnWriteArrayList<>();

    RawBackend(Behaviour behaviour) throws IOException {
        server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        threads.execute(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    accepted.incrementAndGet();
                    open.add(s);
                    threads.execute(() -> {
                        try {
                            behaviour.serve(s);
                        } catch (Exception e) {
                            closeQuietly(s);
                        }
                    });
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    /** Reads one request head (up to the blank line); false when the peer closed first. */
    static boolean readHead(Socket s) throws IOException {
        InputStream in = s.getInputStream();
        int state = 0;
        int b;
        while ((b = in.read()) != -1) {
            state = switch (state) {
                case 0, 2 -> b == '\r' ? state + 1 : 0;
                case 1 -> b == '\n' ? 2 : 0;
                case 3 -> b == '\n' ? 4 : 0;
                default -> 0;
            };
            if (state == 4) {
                return true;
            }
        }
        return false;
    }

    /** Accepts and holds the connection, reading and discarding, never answering. */
    static Behaviour blackHole() {
        return s -> {
            byte[] buf = new byte[4096];
            while (s.getInputStream().read(buf) != -1) {
                // swallow
            }
        };
    }

    /** Sends the head and {@code sent} of {@code length} body bytes, then resets the connection (RST). */
    static Behaviour resetMidBody(int length, int sent) {
        return s -> {
            if (readHead(s)) {
                s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Length: " + length + "\r\n\r\n").getBytes());
                s.getOutputStream().write(new byte[sent]);
                s.getOutputStream().flush();
                Thread.sleep(50);
            }
            s.setSoLinger(true, 0);
            s.close();
        };
    }

    /** Answers 200 with a huge Content-Length and writes 16 KiB every few ms until the peer goes away. */
    static Behaviour endlessStream() {
        return s -> {
            if (!readHead(s)) {
                return;
            }
            var out = s.getOutputStream();
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n".getBytes());
            byte[] chunk = new byte[16384];
            while (true) {
                out.write(chunk); // throws once the proxy closed its side
                out.flush();
                Thread.sleep(5);
            }
        };
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // closing anyway
        }
        open.forEach(RawBackend::closeQuietly);
        threads.shutdownNow();
    }
}
