package dev.fulcrum.app;

import dev.fulcrum.admin.fleet.EtcdFleetClient;
import dev.fulcrum.etcd.EtcdAddress;

/**
 * {@code --attach etcd://HOST:PORT[,...]/PREFIX} for the window, which does not reach etcd itself: the address read,
 * the {@code --etcd-*} flags turned into how to reach the members, and the fleet's client attached. Blocks on the
 * network (not for the JavaFX thread); a bad address or flag is an {@link IllegalArgumentException} naming it.
 */
public final class FleetAttach {
    private FleetAttach() {
    }

    public static EtcdFleetClient connect(String url, EtcdFlags flags) {
        EtcdAddress address = EtcdAddress.parse(url);
        return EtcdFleetClient.attach(url, address, flags.options(address, System::getenv));
    }
}
