package dev.fulcrum.admin.haproxy;

import dev.fulcrum.admin.EngineState;
import java.util.List;
import java.util.Map;

/**
 * One poll of the whole fleet: the merged view every {@link dev.fulcrum.admin.EngineClient} gives, plus what
 * only a fleet has.
 *
 * @param state       the merged state ({@link HaproxyFleetClient#state()})
 * @param servers     every server on every instance that answered
 * @param divergence  servers whose weight, admin state or presence differs between instances
 * @param unreachable instances that did not answer this poll, with the reason
 */
public record FleetState(EngineState state, List<InstanceServer> servers, List<Divergence> divergence,
                         Map<String, String> unreachable) {
}
