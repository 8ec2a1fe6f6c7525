package dev.fulcrum.proxy;

import dev.fulcrum.trust.LocalAuthority;
import dev.fulcrum.trust.Pem;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * The TLS listener's key material: PEM files given in {@code proxy.tls}, or a certificate for localhost (and
 * {@code proxy.tls.names}) issued by Fulcrum's local certificate authority ({@link LocalAuthority}), both kept in the
 * user's config folder ({@code $XDG_CONFIG_HOME/fulcrum/tls} or {@code ~/.config/fulcrum/tls}). Once that authority is
 * trusted ({@code --trust}), browsers open the HTTPS address without a warning.
 *
 * <p>Problems are {@link IllegalArgumentException}s whose message names the config field, the file and
 * the reason, e.g. {@code proxy.tls.privateKey: no private key in the file (got: /etc/x.pem)}.
 */
public final class TlsContexts {
    private static final char[] NO_PASSWORD = new char[0];

    private TlsContexts() {
    }

    /** An SSLContext from PEM files: a certificate chain and a private key (PKCS#8, PKCS#1 or SEC1). */
    public static SSLContext fromPem(Path certificate, Path privateKey) {
        List<X509Certificate> chain = Pem.certificates(certificate, "proxy.tls.certificate");
        PrivateKey key = Pem.privateKey(privateKey, "proxy.tls.privateKey");
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("fulcrum", key, NO_PASSWORD, chain.toArray(new Certificate[0]));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, NO_PASSWORD);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, new SecureRandom());
            return ctx;
        } catch (Exception e) {
            throw new IllegalArgumentException("proxy.tls.privateKey: the key does not match the certificate or cannot be used ("
                    + e.getMessage() + ") (got: " + privateKey + ")", e);
        }
    }

    /**
     * The local certificate in {@code dir} ({@code localhost.crt}, {@code localhost.key}) for localhost, {@code
     * *.localhost}, 127.0.0.1, ::1 and {@code extraNames}, issued by the local authority in {@code dir/ca} (created
     * there first if there is none) and issued again when the names change or it nears its end.
     */
    public static SSLContext local(Path dir, List<String> extraNames) {
        Path cert = dir.resolve("localhost.crt");
        Path key = dir.resolve("localhost.key");
        try {
            LocalAuthority.loadOrCreate(LocalAuthority.dirIn(dir)).serverCertificate(cert, key,
                    LocalAuthority.names(extraNames));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("proxy.tls.certificate: cannot issue a local certificate in " + dir
                    + " (" + e.getMessage() + ") (got: null)", e);
        }
        return fromPem(cert, key);
    }

    /** Where the local certificate and its authority live. */
    public static Path defaultDir() {
        return LocalAuthority.defaultTlsDir();
    }
}
