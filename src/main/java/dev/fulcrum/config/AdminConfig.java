package dev.fulcrum.config;

/**
 * The admin API listener ({@code admin}, docs/REFERENCE.md §2.1 and §4).
 *
 * @param token bearer token every {@code /api/*} and {@code /metrics} request must carry; null = none, which is only
 *              allowed while {@code host} is a loopback address
 */
public record AdminConfig(String host, int port, String token) {
    public static final AdminConfig DEFAULT = new AdminConfig("127.0.0.1", 8081, null);

    public AdminConfig withPort(int newPort) {
        return new AdminConfig(host, newPort, token);
    }
}
