package dev.fulcrum.config;

import java.util.List;

/**
 * TLS on the proxy listener ({@code proxy.tls}, docs/REFERENCE.md §2.1).
 *
 * @param enabled     listen for HTTPS as well
 * @param port        HTTPS port (0 = pick a free port)
 * @param certificate PEM certificate (chain) path, resolved against the working directory; null = a self-signed
 *                    certificate for localhost, generated once and kept
 * @param privateKey  PEM private key path; given together with {@code certificate}
 * @param http2       offer HTTP/2 through ALPN on the TLS listener
 * @param names       more names (hosts or addresses) for the generated certificate, beside localhost,
 *                    {@code *.localhost}, 127.0.0.1 and ::1; never null
 */
public record TlsConfig(boolean enabled, int port, String certificate, String privateKey, boolean http2,
                        List<String> names) {
    public static final TlsConfig DEFAULT = new TlsConfig(false, 8443, null, null, true);

    public TlsConfig {
        names = names == null ? List.of() : List.copyOf(names);
    }

    /** TLS settings with no extra names for the generated certificate. */
    public TlsConfig(boolean enabled, int port, String certificate, String privateKey, boolean http2) {
        this(enabled, port, certificate, privateKey, http2, List.of());
    }

    /** These settings with the HTTPS port replaced (the {@code --tls-port} override; 0 = any free port). */
    public TlsConfig withPort(int newPort) {
        return new TlsConfig(enabled, newPort, certificate, privateKey, http2, names);
    }
}
