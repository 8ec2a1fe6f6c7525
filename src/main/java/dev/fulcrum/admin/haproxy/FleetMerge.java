package dev.fulcrum.admin.haproxy;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.admin.EngineState.PoolInfo;
import dev.fulcrum.engine.EngineException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Merges what the instances of a fleet answered to one poll into the one view a window shows: a pure function of
 * the answers and of the request counters of the previous poll (for the error rate). The rules of the merged
 * fields are those of {@link HaproxyFleetClient}'s class doc; instances that disagree are reported as
 * {@link Divergence}s rather than averaged, and an instance that did not answer is left out and named.
 *
 * <p>Example: instances A and B both have {@code app/s1}. A reports user weight 7 and 2 sessions, B weight 1 and 3
 * sessions. The merged {@code s1} has weight 7 (A answered first in attach order), 5 active requests, and the
 * divergence {@code s1: weight differs: A=7, B=1}. If B does not answer, {@code s1} has weight 7 and 2 active
 * requests, no divergence, and B is under {@link FleetState#unreachable()}.
 */
final class FleetMerge {

    /** What one instance answered: its {@code show stat} and its {@code show servers state}. */
    record InstancePoll(HaproxyRuntime.Stats stats, List<ServerState> states) {
    }

    /** A server's {@code stot} and failures summed over the instances, to rate the errors between two polls. */
    record Counters(long total, long failures) {
    }

    /**
     * @param fleet    the merged view
     * @param ids      each server's merged id and its key, for commands that name a server by id
     * @param counters this poll's counters of every server in {@code fleet}, by id
     */
    record Merged(FleetState fleet, Map<String, ServerKey> ids, Map<String, Counters> counters) {
    }

    private FleetMerge() {
    }

    /**
     * Merges one poll.
     *
     * @param proxy       the fleet's attach URI: the merged state's {@code proxy}, where a Fulcrum names its listener
     * @param answered    the instances that answered, by name, in attach order
     * @param unreachable the instances that did not, with the reason
     * @param previous    the counters of the previous poll by id (empty on the first: error rates are then 0)
     * @throws EngineException 502 when no instance answered
     */
    static Merged merge(String proxy, Map<String, InstancePoll> answered, Map<String, String> unreachable,
                        Map<String, Counters> previous) {
        if (answered.isEmpty()) {
            throw new EngineException(502, "no HAProxy instance answered: " + String.join("; ", unreachable.values()));
        }
        List<String> instances = List.copyOf(answered.keySet());
        Map<String, List<BackendStat>> backendRows = new LinkedHashMap<>();
        // per server, per instance in attach order
        Map<ServerKey, Map<String, ServerStat>> stats = new TreeMap<>();
        Map<ServerKey, Map<String, AdminState>> admins = new HashMap<>();
        Map<ServerKey, Map<String, Integer>> userWeights = new HashMap<>();
        answered.forEach((instance, poll) -> {
            for (BackendStat b : poll.stats().backends()) {
                backendRows.computeIfAbsent(b.name(), k -> new ArrayList<>()).add(b);
            }
            for (ServerStat s : poll.stats().servers()) {
                stats.computeIfAbsent(new ServerKey(s.backend(), s.server()), k -> new LinkedHashMap<>())
                        .put(instance, s);
            }
            for (ServerState s : poll.states()) {
                ServerKey k = new ServerKey(s.backend(), s.server());
                admins.computeIfAbsent(k, x -> new LinkedHashMap<>()).put(instance, s.admin());
                userWeights.computeIfAbsent(k, x -> new LinkedHashMap<>()).put(instance, s.userWeight());
            }
        });
        Map<String, ServerKey> ids = assignIds(stats.keySet());
        Map<ServerKey, String> idOf = new HashMap<>();
        ids.forEach((id, k) -> idOf.put(k, id));

        List<InstanceServer> servers = new ArrayList<>();
        List<BackendInfo> backends = new ArrayList<>();
        List<Divergence> divergence = new ArrayList<>();
        Map<String, Counters> counters = new HashMap<>();
        for (Map.Entry<ServerKey, Map<String, ServerStat>> e : stats.entrySet()) {
            ServerKey k = e.getKey();
            String id = idOf.get(k);
            Map<String, ServerStat> per = e.getValue();
            Map<String, AdminState> adm = admins.getOrDefault(k, Map.of());
            Map<String, Integer> uw = userWeights.getOrDefault(k, Map.of());
            per.forEach((instance, stat) -> servers.add(new InstanceServer(instance, id, stat,
                    adm.getOrDefault(instance, AdminState.READY))));
            divergence.addAll(divergenceOf(id, instances, per, adm, uw));
            BackendInfo merged = mergeServer(id, k, instances, per, adm, uw, previous.get(id));
            backends.add(merged);
            counters.put(id, new Counters(merged.totalRequests(), merged.failures()));
        }
        EngineState state = new EngineState(proxy, firstStrategy(backendRows, stats.keySet()),
                pools(backendRows), List.of(), List.copyOf(backends));
        FleetState fleet = new FleetState(state, List.copyOf(servers), List.copyOf(divergence),
                Map.copyOf(unreachable));
        return new Merged(fleet, Collections.unmodifiableMap(ids), Map.copyOf(counters));
    }

    /**
     * Short ids where the server name is unique across backends, {@code backend/server} otherwise: backends
     * {@code app {s1, s2}} and {@code api {s1}} give {@code s2}, {@code app/s1} and {@code api/s1}.
     */
    static Map<String, ServerKey> assignIds(Set<ServerKey> keys) {
        Map<String, Integer> count = new HashMap<>();
        for (ServerKey k : keys) {
            count.merge(k.server(), 1, Integer::sum);
        }
        Map<String, ServerKey> out = new TreeMap<>();
        for (ServerKey k : keys) {
            out.put(count.get(k.server()) == 1 ? k.server() : k.backend() + "/" + k.server(), k);
        }
        return out;
    }

    /** One pool per HAProxy backend, its strategy {@code haproxy:ALGO}, its in-flight summed over instances. */
    private static Map<String, PoolInfo> pools(Map<String, List<BackendStat>> backendRows) {
        Map<String, PoolInfo> pools = new LinkedHashMap<>();
        backendRows.forEach((name, rows) -> pools.put(name, new PoolInfo(strategy(rows),
                false, rows.stream().mapToInt(BackendStat::currentSessions).sum())));
        return pools;
    }

    /** The strategy of the first backend that has servers, as the state's default strategy. */
    private static Map<String, Object> firstStrategy(Map<String, List<BackendStat>> backendRows, Set<ServerKey> keys) {
        for (Map.Entry<String, List<BackendStat>> e : backendRows.entrySet()) {
            if (keys.stream().anyMatch(k -> k.backend().equals(e.getKey()))) {
                return strategy(e.getValue());
            }
        }
        return null;
    }

    private static Map<String, Object> strategy(List<BackendStat> rows) {
        return Map.of("type", "haproxy:" + rows.get(0).algorithm());
    }

    private static List<Divergence> divergenceOf(String id, List<String> answered, Map<String, ServerStat> per,
                                                 Map<String, AdminState> adm, Map<String, Integer> uw) {
        List<Divergence> out = new ArrayList<>();
        if (per.size() < answered.size()) {
            Map<String, String> presence = new LinkedHashMap<>();
            for (String inst : answered) {
                presence.put(inst, per.containsKey(inst) ? "present" : "absent");
            }
            out.add(new Divergence(id, "presence", presence));
        }
        if (new HashSet<>(uw.values()).size() > 1) {
            Map<String, String> m = new LinkedHashMap<>();
            uw.forEach((i, w) -> m.put(i, Integer.toString(w)));
            out.add(new Divergence(id, "weight", m));
        }
        if (new HashSet<>(adm.values()).size() > 1) {
            Map<String, String> m = new LinkedHashMap<>();
            adm.forEach((i, a) -> m.put(i, a.cliName()));
            out.add(new Divergence(id, "admin", m));
        }
        return out;
    }

    private static BackendInfo mergeServer(String id, ServerKey k, List<String> answered, Map<String, ServerStat> per,
                                           Map<String, AdminState> adm, Map<String, Integer> uw, Counters prev) {
        String first = answered.stream().filter(per::containsKey).findFirst().orElseThrow();
        ServerStat f = per.get(first);
        AdminState admin = adm.getOrDefault(first, AdminState.READY);
        int userWeight = uw.getOrDefault(first, f.userWeight());
        int sessions = 0;
        double rate = 0;
        long total = 0;
        long failures = 0;
        boolean anyChecked = false;
        boolean anyDown = false;
        for (ServerStat s : per.values()) {
            sessions += s.currentSessions();
            rate += s.rate();
            total += s.totalSessions();
            failures += s.connectErrors() + s.responseErrors() + s.http5xx();
            anyChecked |= s.checked();
            // HAProxy's own verdict, checks of its own or not: a server that tracks another ("track app/s1") or
            // has only an agent check is DOWN when HAProxy says so, and takes no traffic
            anyDown |= s.operationallyDown();
        }
        String health = anyDown ? "DOWN" : !anyChecked ? "UNKNOWN" : "UP";
        String state;
        if (admin == AdminState.DRAIN || admin == AdminState.MAINT || userWeight == 0 || f.status().startsWith("NOLB")) {
            // maintenance takes no new requests but, unlike "shutdown sessions", lets running ones finish
            state = sessions > 0 ? "DRAINING" : "DRAINED";
        } else if (anyDown) {
            state = "DOWN";
        } else {
            state = "UP";
        }
        double errorRate = 0;
        if (prev != null && total > prev.total() && failures >= prev.failures()) {
            errorRate = (double) (failures - prev.failures()) / (total - prev.total());
        }
        String url = f.address().isEmpty() ? null : "http://" + f.address();
        return new BackendInfo(id, k.backend(), url, userWeight, f.weight(), state, health, null, sessions, total,
                failures, rate, Math.min(1, errorRate), Double.NaN, Double.NaN, f.backup(), f.maxConn(), 0, 0);
    }
}
