package dev.fulcrum.admin.haproxy;

/**
 * An HAProxy server: its backend and its name, the pair every runtime command names ({@code set server app/s1 ...}).
 * Ordered by backend, then name, so merged views list servers the same way on every poll.
 */
record ServerKey(String backend, String server) implements Comparable<ServerKey> {
    @Override
    public int compareTo(ServerKey o) {
        int c = backend.compareTo(o.backend);
        return c != 0 ? c : server.compareTo(o.server);
    }
}
