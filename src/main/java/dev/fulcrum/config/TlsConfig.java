package dev.fulcrum.config;

/**
 * TLS on the proxy listener ({@code proxy.tls}, docs/REFERENCE.md §2.1).
 *
 * @param enabled     listen for HTTPS as well
 * @param port        HTTPS port (0 = pick a free port)
 * @param certificate PEM certificate (chain) path, resolved against the working directory; null = a self-signed
 *                    certificate for localhost, generated once and kept
 * @param privateKey  PEM private key path; given together with {@code certificate}
 * @param http2       offer HTTP/2 through ALPN on the TLS listener
 */
public record TlsConfig(boolean enabled, int port, String certificate, String privateKey, boolean http2) {
    public static final TlsConfig DEFAULT = new TlsConfig(false, 8443, null, null, true);
}
