package dev.fulcrum.admin.fleet;

/**
 * One Fulcrum of the fleet, as its key {@code PREFIX/instances/ID} says (docs/REFERENCE.md §8), and whether the key is
 * still there.
 *
 * @param id             the instance's id ({@code --instance-id}, default {@code <hostname>-<pid>})
 * @param proxy          its proxy URL, e.g. {@code http://127.0.0.1:8080}
 * @param admin          its admin API URL, e.g. {@code http://127.0.0.1:8081}
 * @param version        Fulcrum's version it runs
 * @param configRevision the mod revision of {@code PREFIX/config} it last applied (0: none yet)
 * @param configState    {@code ok}, {@code refused} (it refused the latest config) or {@code unreachable} (it cannot
 *                       reach etcd)
 * @param startedAt      when it started, epoch ms
 * @param up             false once its key is gone (stopped, or its lease expired): it stays listed as gone
 * @param since          epoch ms: when this window first saw it up, or saw its key go
 */
public record FleetInstance(String id, String proxy, String admin, String version, long configRevision,
                            String configState, long startedAt, boolean up, long since) {
    /** Whether it refused the latest config written. */
    public boolean refused() {
        return "refused".equals(configState);
    }

    FleetInstance gone(long at) {
        return new FleetInstance(id, proxy, admin, version, configRevision, configState, startedAt, false, at);
    }
}
