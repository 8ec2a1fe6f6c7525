package dev.fulcrum.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Ports nothing listens on at 127.0.0.1 right now, for a server a test starts on a port it must name up front (etcd,
 * HAProxy, Prometheus, nginx, an engine's admin API) or for an address a connection to is refused. The system picks
 * each one: a socket is bound to port 0 and let go. Nothing stops another process taking the port before the test
 * uses it, so a server started on it fails loudly in that rare race. Several ports asked for at once are all
 * different: every probe socket stays open until all are chosen, since one closed before the next is asked for may be
 * handed out again.
 *
 * <p>Example: {@code URI nobody = URI.create("http://127.0.0.1:" + FreePort.loopback()); // refused}.
 */
public final class FreePort {
    private FreePort() {
    }

    /** One port nothing listens on at 127.0.0.1. */
    public static int loopback() {
        return loopback(1)[0];
    }

    /** {@code n} different ports nothing listens on at 127.0.0.1. */
    public static int[] loopback(int n) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            InetAddress v4 = InetAddress.getByName("127.0.0.1");
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                // held until all n are chosen, so the system cannot hand the same port out twice
                ServerSocket s = new ServerSocket(0, 1, v4);
                held.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closing a listening socket of our own: nothing to do about it
                }
            }
        }
    }
}
