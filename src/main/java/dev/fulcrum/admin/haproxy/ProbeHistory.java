package dev.fulcrum.admin.haproxy;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Health tab's check results for a fleet, built from polls: HAProxy keeps only each server's last check, so a
 * result is appended when an instance's last check differs from what the previous poll saw (its status, code or
 * server status), and the newest {@link #SIZE} are kept per server.
 *
 * <p>Example: polls seeing {@code L7OK 200 UP}, {@code L7OK 200 UP}, {@code L4CON - DOWN} append two results. A check
 * under way ({@code * L7OK}, its code reading 0) is no new result and is skipped, so polls that alternate between
 * a running and a finished check of an unchanged server append nothing.
 *
 * <p>Thread-safe: polls from the window and from the event poller may record at once.
 */
final class ProbeHistory {
    /** Results kept per server (a guess: changes are rare, so 20 reach back far enough to see a flapping server). */
    static final int SIZE = 20;

    private final Map<String, Deque<Map<String, Object>>> probes = new TreeMap<>();
    /** The last result seen per server and instance ({@code id@instance}). */
    private final Map<String, String> last = new HashMap<>();

    /** Appends the results of one poll that differ from the last ones seen; {@code at} is the poll's wall time. */
    synchronized void record(List<InstanceServer> servers, long at) {
        for (InstanceServer is : servers) {
            ServerStat s = is.stat();
            if (!s.checked() || s.checkRunning()) {
                continue;
            }
            String value = s.checkStatus() + "|" + s.checkCode() + "|" + s.status();
            if (value.equals(last.put(is.id() + "@" + is.instance(), value))) {
                continue;
            }
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("at", at);
            p.put("instance", is.instance());
            p.put("ok", !s.operationallyDown());
            p.put("checkStatus", s.checkStatus());
            p.put("code", s.checkCode());
            p.put("durationMs", s.checkDurationMs());
            p.put("status", s.status());
            Deque<Map<String, Object>> d = probes.computeIfAbsent(is.id(), x -> new ArrayDeque<>());
            d.addLast(p);
            while (d.size() > SIZE) {
                d.removeFirst();
            }
        }
    }

    /** The results by server id, oldest first. */
    synchronized Map<String, List<Map<String, Object>>> snapshot() {
        Map<String, List<Map<String, Object>>> out = new TreeMap<>();
        probes.forEach((id, d) -> out.put(id, List.copyOf(d)));
        return out;
    }
}
