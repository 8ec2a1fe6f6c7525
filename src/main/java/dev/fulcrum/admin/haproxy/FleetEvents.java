package dev.fulcrum.admin.haproxy;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.admin.EngineState.BackendInfo;
import dev.fulcrum.engine.EngineEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The events that explain going from one merged fleet view to the next. HAProxy's runtime API pushes nothing, so
 * a fleet's events are this difference between two polls, named as the embedded engine names its own:
 * <ul>
 *   <li>{@code membership}: a server appeared ({@code null -> added}) or vanished ({@code present -> removed});</li>
 *   <li>{@code weight}: its user weight changed ({@code "1" -> "4"});</li>
 *   <li>{@code drain}: its state went into or out of DRAINING / DRAINED;</li>
 *   <li>{@code health}: another state change (UP / DOWN), or a health change that left the state alone.</li>
 * </ul>
 * Example: {@code s1} weight 1 to 4 and {@code s2} UP to DRAINING give, in server order, {@code weight s1 1->4} then
 * {@code drain s2 UP->DRAINING}; a removed server's event comes after those of the servers still there.
 */
final class FleetEvents {
    private FleetEvents() {
    }

    /** The events from {@code before} to {@code after}, each stamped {@code at} (the later poll's time). */
    static List<EngineEvent> diff(EngineState before, EngineState after, long at) {
        Map<String, BackendInfo> old = new LinkedHashMap<>();
        before.backends().forEach(b -> old.put(b.id(), b));
        List<EngineEvent> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (BackendInfo b : after.backends()) {
            seen.add(b.id());
            BackendInfo o = old.get(b.id());
            if (o == null) {
                out.add(new EngineEvent("membership", b.pool(), b.id(), null, "added", at));
                continue;
            }
            if (o.weight() != b.weight()) {
                out.add(new EngineEvent("weight", b.pool(), b.id(), Integer.toString(o.weight()),
                        Integer.toString(b.weight()), at));
            }
            if (!o.state().equals(b.state())) {
                boolean drain = isDrain(o.state()) || isDrain(b.state());
                out.add(new EngineEvent(drain ? "drain" : "health", b.pool(), b.id(), o.state(), b.state(), at));
            } else if (!Objects.equals(o.health(), b.health())) {
                out.add(new EngineEvent("health", b.pool(), b.id(), o.health(), b.health(), at));
            }
        }
        for (BackendInfo o : before.backends()) {
            if (!seen.contains(o.id())) {
                out.add(new EngineEvent("membership", o.pool(), o.id(), "present", "removed", at));
            }
        }
        return out;
    }

    private static boolean isDrain(String state) {
        return state.equals("DRAINING") || state.equals("DRAINED");
    }
}
