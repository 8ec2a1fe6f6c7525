package dev.fulcrum.admin.haproxy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for an HAProxy stats socket, for versions and failures the installed HAProxy cannot play:
 * it answers each connection's one command line from a table (empty answer, i.e. success, for the rest)
 * and records what it was sent.
 */
final class FakeStatsSocket implements AutoCloseable {
    private final ServerSocket server;
    private final Map<String, String> answers = new ConcurrentHashMap<>();
    final List<String> received = new CopyOnWriteArrayList<>();

    FakeStatsSocket(String version) throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        answers.put("show info", "Name: HAProxy\nVersion: " + version + "\nPid: 1\n\n");
        Thread t = new Thread(this::serve, "fake-stats-socket");
        t.setDaemon(true);
        t.start();
    }

    FakeStatsSocket answer(String command, String answer) {
        answers.put(command, answer);
        return this;
    }

    InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", server.getLocalPort());
    }

    String name() {
        return "127.0.0.1:" + server.getLocalPort();
    }

    private void serve() {
        while (!server.isClosed()) {
            try (Socket s = server.accept()) {
                String line = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
                if (line == null) {
                    continue;
                }
                received.add(line);
                OutputStream out = s.getOutputStream();
                out.write(answers.getOrDefault(line, "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                // closed, or a client that went away: the next accept decides
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
