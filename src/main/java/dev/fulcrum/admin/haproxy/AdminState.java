package dev.fulcrum.admin.haproxy;

/**
 * The administrative state an operator sets on an HAProxy server with {@code set server B/S state ...}:
 * in rotation ({@code ready}), finishing its sessions but taking no new ones ({@code drain}), or out of
 * service ({@code maint}).
 *
 * <p>{@code show servers state} reports it as the {@code srv_admin_state} bit field; {@link #fromBits} reads
 * it. The bits (HAProxy's {@code SRV_ADMF_*}): 0x01 forced maintenance, 0x02 inherited maintenance (tracked
 * server), 0x04 maintenance from the config ({@code disabled}), 0x08 forced drain, 0x10 inherited drain,
 * 0x20 maintenance because DNS resolution failed, 0x40 maintenance because the hostname is unresolved.
 * Example: a server just created with {@code add server} reports 1 (forced maintenance until
 * {@code enable server}); after {@code set server app/s1 state drain} it reports 8.
 */
public enum AdminState {
    READY, DRAIN, MAINT;

    // HAProxy's SRV_ADMF_MAINT (0x23): forced, inherited, resolution; 0x04 (disabled in the config) stays set as a
    // marker after "enable server", and 0x40 only says the FQDN came from the socket
    static final int MAINT_BITS = 0x01 | 0x02 | 0x20;
    static final int DRAIN_BITS = 0x08 | 0x10;

    /** Maintenance wins over drain: a server in both takes no traffic at all. */
    public static AdminState fromBits(int bits) {
        if ((bits & MAINT_BITS) != 0) {
            return MAINT;
        }
        if ((bits & DRAIN_BITS) != 0) {
            return DRAIN;
        }
        return READY;
    }

    /** The word {@code set server ... state} takes: ready, drain or maint. */
    public String cliName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
