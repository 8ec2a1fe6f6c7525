package dev.fulcrum.admin.haproxy;

/**
 * One line of {@code show servers state}: what the server-state file would persist, including the
 * administrative bits that {@code show stat} folds into its status text.
 *
 * @param backend       {@code be_name}
 * @param server        {@code srv_name}
 * @param address       {@code srv_addr}
 * @param port          {@code srv_port}
 * @param operational   {@code srv_op_state}: 0 stopped, 1 starting, 2 running, 3 stopping
 * @param adminBits     {@code srv_admin_state}, see {@link AdminState}
 * @param userWeight    {@code srv_uweight}
 * @param initialWeight {@code srv_iweight}, the weight from the config or {@code add server}
 */
public record ServerState(String backend, String server, String address, int port, int operational, int adminBits,
                          int userWeight, int initialWeight) {

    public AdminState admin() {
        return AdminState.fromBits(adminBits);
    }
}
