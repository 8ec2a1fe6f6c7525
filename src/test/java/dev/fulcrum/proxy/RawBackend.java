package dev.fulcrum.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.function.BiConsumer;

/** A loopback HTTP/1.1 backend that records every byte it receives and answers each request head with {@code answer}. */
final class RawBackend implements AutoCloseable {
    final StringBuffer received = new StringBuffer();
    private final ServerSocket server;
    /** Called per request head (the head text, the socket's output). */
    volatile BiConsumer<String, OutputStream> answer = (head, out) -> write(out,
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
    /** Above 0: each connection answers this many requests, then is closed (or reset) when the next one arrives. */
    volatile int answersPerConnection;
    volatile boolean resetInsteadOfClose;

    RawBackend() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(this::acceptLoop, "raw-backend");
        t.setDaemon(true);
        t.start();
    }

    static void write(OutputStream out, String s) {
        try {
            out.write(s.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        } catch (IOException e) {
            // client gone
        }
    }

    String url() {
        return "http://127.0.0.1:" + server.getLocalPort();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread t = new Thread(() -> serve(s), "raw-backend-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            StringBuilder pending = new StringBuilder();
            byte[] buf = new byte[8192];
            int served = 0;
            int n;
            while ((n = in.read(buf)) > 0) {
                String chunk = new String(buf, 0, n, StandardCharsets.ISO_8859_1);
                received.append(chunk);
                pending.append(chunk);
                int end;
                while ((end = pending.indexOf("\r\n\r\n")) >= 0) {
                    String head = pending.substring(0, end + 4);
                    pending.delete(0, end + 4);
                    if (answersPerConnection > 0 && served++ >= answersPerConnection) {
                        if (resetInsteadOfClose) {
                            s.setSoLinger(true, 0);
                        }
                        return; // closed, unanswered: an idle keep-alive connection the backend gave up on
                    }
                    answer.accept(head, out);
                }
            }
        } catch (IOException e) {
            // done
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
