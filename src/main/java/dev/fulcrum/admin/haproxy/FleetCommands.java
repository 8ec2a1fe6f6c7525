package dev.fulcrum.admin.haproxy;

import dev.fulcrum.engine.EngineException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The changes a fleet makes: each goes to every instance, in attach order. A refusal on one instance does not stop
 * the others; after trying all, one {@link EngineException} names each instance that refused and those that
 * applied it, with the first refusal's status:
 * {@code set weight of s1 to 3 failed on 127.0.0.1:9002 (HAProxy 127.0.0.1:9002: ... No such server.); applied on
 * 127.0.0.1:9001}. The instances are then left as they are (no rollback): the poll shows the disagreement as a
 * {@link Divergence}, and repeating the command makes them agree.
 *
 * <p>Values are checked before anything is sent, so a bad one reaches no instance: weights 0-256 (HAProxy's range),
 * names by HAProxy's rule, urls {@code http://HOST:PORT}. Adding and removing need dynamic servers (HAProxy 2.5+) on
 * every instance; otherwise 501 naming the version, sent to none.
 */
final class FleetCommands {
    private final List<HaproxyRuntime> instances;
    private final String source;
    private final Function<String, ServerKey> resolve;
    private final Supplier<FleetState> poll;

    /**
     * @param source  the fleet's attach URI, for "no such server" messages
     * @param resolve a server id (or {@code backend/server}) to its key; refuses unknown ids
     * @param poll    a fresh poll of the fleet, for what an addition needs to know (backends, checks)
     */
    FleetCommands(List<HaproxyRuntime> instances, String source, Function<String, ServerKey> resolve,
                  Supplier<FleetState> poll) {
        this.instances = List.copyOf(instances);
        this.source = source;
        this.resolve = resolve;
        this.poll = poll;
    }

    void setWeight(String id, int weight) {
        HaproxyRuntime.checkWeight(weight);
        ServerKey k = resolve.apply(id);
        onAll("set weight of " + id + " to " + weight, r -> r.setWeight(k.backend(), k.server(), weight));
    }

    void drain(String id) {
        ServerKey k = resolve.apply(id);
        onAll("drain " + id, r -> r.setState(k.backend(), k.server(), AdminState.DRAIN));
    }

    void enable(String id) {
        ServerKey k = resolve.apply(id);
        onAll("enable " + id, r -> r.setState(k.backend(), k.server(), AdminState.READY));
    }

    /** {@link HaproxyFleetClient#remove}: an instance without the server counts as done; 404 when none has it. */
    void remove(String id) {
        requireDynamic("del server");
        ServerKey k = resolve.apply(id);
        List<String> absent = new ArrayList<>();
        onAll("remove " + id, r -> {
            try {
                r.deleteServer(k.backend(), k.server());
            } catch (EngineException e) {
                if (e.status() != 404) {
                    throw e;
                }
                absent.add(r.name());
            }
        });
        if (absent.size() == instances.size()) {
            throw new EngineException(404, "id: no HAProxy server '" + id + "' on " + source);
        }
    }

    /**
     * {@link HaproxyFleetClient#addBackend(String, String, String, int, Integer, boolean)}; with pool {@code default}
     * (when no backend has that name) or none, the server goes to the one backend that has servers.
     */
    void add(String pool, String id, String url, int weight, Integer maxInFlight, boolean backup) {
        requireDynamic("add server");
        HaproxyRuntime.checkWeight(weight);
        String server = id;
        String backend = pool;
        if (id != null && id.contains("/")) {
            backend = id.substring(0, id.indexOf('/'));
            server = id.substring(id.indexOf('/') + 1);
            if (pool != null && !pool.equals(backend) && !pool.equals("default")) {
                throw new EngineException(400, "pool: '" + pool + "' differs from the backend in id '" + id + "'");
            }
        }
        FleetState fs = poll.get();
        Set<String> pools = fs.state().pools().keySet();
        if (backend == null || backend.equals("default") && !pools.contains("default")) {
            Set<String> withServers = fs.servers().stream().map(s -> s.stat().backend())
                    .collect(Collectors.toCollection(LinkedHashSet::new));
            if (withServers.size() != 1) {
                throw new EngineException(400, "pool: name the HAProxy backend to add to (one of: "
                        + String.join(", ", pools) + ")");
            }
            backend = withServers.iterator().next();
        }
        if (!pools.contains(backend)) {
            throw new EngineException(404, "pool: no HAProxy backend named '" + backend + "' (have: "
                    + String.join(", ", pools) + ")");
        }
        HaproxyRuntime.checkName("id", server);
        String hostPort = hostPort(url);
        String b = backend;
        boolean check = fs.servers().stream().anyMatch(s -> s.stat().backend().equals(b) && s.stat().checked());
        String srv = server;
        onAll("add " + b + "/" + srv, r -> r.addServer(b, srv, hostPort, weight, check, maxInFlight, backup));
    }

    /**
     * {@code http://HOST[:PORT][/]} to the {@code ADDRESS:PORT} HAProxy's {@code add server} takes (port 80 when
     * none). HAProxy registers a dynamic server named by host without resolving it: no address, and every request
     * it would take gets 503. So a name is resolved here and the server added by its address:
     * {@code http://localhost:8081} gives {@code 127.0.0.1:8081}.
     */
    static String hostPort(String url) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException | NullPointerException e) {
            throw new EngineException(400, "url: must be http://HOST:PORT (got: " + url + ")");
        }
        if (!"http".equalsIgnoreCase(u.getScheme()) || u.getHost() == null
                || u.getRawPath() != null && !u.getRawPath().isEmpty() && !u.getRawPath().equals("/")) {
            throw new EngineException(400, "url: must be http://HOST:PORT; HAProxy servers are added as plain "
                    + "http without a path (got: " + url + ")");
        }
        String host = u.getHost();
        if (!host.startsWith("[") && !host.matches("[0-9.]+")) {
            try {
                InetAddress a = InetAddress.getByName(host);
                host = a instanceof Inet6Address ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
            } catch (UnknownHostException e) {
                throw new EngineException(400, "url: the host does not resolve (HAProxy needs an address for a server "
                        + "added at run time) (got: " + url + ")");
            }
        }
        return host + ":" + (u.getPort() < 0 ? 80 : u.getPort());
    }

    /** Refuses a dynamic-server command before any instance gets it when one instance cannot run it. */
    private void requireDynamic(String command) {
        for (HaproxyRuntime r : instances) {
            r.requireDynamicServers(command);
        }
    }

    private void onAll(String what, Consumer<HaproxyRuntime> change) {
        List<String> applied = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        Integer status = null;
        for (HaproxyRuntime r : instances) {
            try {
                change.accept(r);
                applied.add(r.name());
            } catch (EngineException e) {
                failed.add(r.name() + " (" + e.getMessage() + ")");
                status = status == null ? e.status() : status;
            }
        }
        if (status != null) {
            throw new EngineException(status, what + " failed on " + String.join(", ", failed)
                    + (applied.isEmpty() ? "" : "; applied on " + String.join(", ", applied)));
        }
    }
}
