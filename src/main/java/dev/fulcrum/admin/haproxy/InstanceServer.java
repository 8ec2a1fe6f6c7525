package dev.fulcrum.admin.haproxy;

/**
 * One server as one instance of the fleet sees it, for the window's per-instance detail.
 *
 * @param instance {@code host:port} of the stats socket
 * @param id       the merged id (see {@link HaproxyFleetClient})
 * @param stat     its {@code show stat} row
 * @param admin    its administrative state from {@code show servers state}
 */
public record InstanceServer(String instance, String id, ServerStat stat, AdminState admin) {
}
