package dev.fulcrum.admin.fleet;

/**
 * Where the fleet's config comes from, as the window last saw it.
 *
 * @param url       the attach address, {@code etcd://HOST:PORT[,...]/PREFIX}
 * @param key       the config's key, {@code PREFIX/config}
 * @param reachable whether etcd answers now
 * @param since     epoch ms: when it stopped or started answering (0 before anything happened)
 * @param problem   why it does not answer (null while it does)
 * @param revision  the config's mod revision as the window last read it
 */
public record FleetSource(String url, String key, boolean reachable, long since, String problem, long revision) {
}
