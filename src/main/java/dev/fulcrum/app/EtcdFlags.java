package dev.fulcrum.app;

import dev.fulcrum.etcd.EtcdAddress;
import dev.fulcrum.etcd.EtcdOptions;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/**
 * The command line's way into a TLS etcd with auth (docs/REFERENCE.md §1), shared by {@code --config etcd://...} and
 * {@code --attach etcd://...}: {@code --etcd-cacert FILE --etcd-cert FILE --etcd-key FILE --etcd-user NAME[:PASSWORD]},
 * the password from {@code NAME:PASSWORD} or else the environment variable {@value #PASSWORD_ENV} (which {@code ps}
 * does not show). A picocli mixin: {@code @Mixin EtcdFlags etcd = new EtcdFlags();}.
 *
 * <p>Example: {@code --attach etcds://10.0.0.5:2379/fulcrum/prod --etcd-cacert ca.pem --etcd-user ops} with
 * {@code FULCRUM_ETCD_PASSWORD=s3cret} gives the endpoint {@code https://10.0.0.5:2379}, the CA {@code ca.pem}, user
 * {@code ops} and password {@code s3cret}.
 */
public final class EtcdFlags {
    /** Where the password of {@code --etcd-user NAME} comes from when the flag does not give one. */
    public static final String PASSWORD_ENV = "FULCRUM_ETCD_PASSWORD";

    @Option(names = "--etcd-cacert", paramLabel = "FILE", description = "with an etcds:// address: the PEM file of the"
            + " CA that signed etcd's certificates (default: the JDK's trusted CAs)")
    Path cacert;

    @Option(names = "--etcd-cert", paramLabel = "FILE", description = "with an etcds:// address: a PEM client"
            + " certificate for etcd (--client-cert-auth), with --etcd-key")
    Path cert;

    @Option(names = "--etcd-key", paramLabel = "FILE", description = "the PEM private key of --etcd-cert")
    Path key;

    @Option(names = "--etcd-user", paramLabel = "NAME[:PASSWORD]", description = "etcd user (the password after a"
            + " colon, or from $" + PASSWORD_ENV + ")")
    String user;

    /** Whether any of the flags is given. */
    public boolean given() {
        return cacert != null || cert != null || key != null || user != null;
    }

    public Path cacert() {
        return cacert;
    }

    public Path cert() {
        return cert;
    }

    public Path key() {
        return key;
    }

    /** The user name of {@code --etcd-user}, or null. */
    public String user() {
        if (user == null) {
            return null;
        }
        int colon = user.indexOf(':');
        return colon < 0 ? user : user.substring(0, colon);
    }

    /** The password after the colon of {@code --etcd-user}, else {@value #PASSWORD_ENV}'s value, else null. */
    public String password(UnaryOperator<String> env) {
        if (user == null) {
            return null;
        }
        int colon = user.indexOf(':');
        if (colon >= 0) {
            return user.substring(colon + 1);
        }
        String v = env.apply(PASSWORD_ENV);
        return v == null || v.isEmpty() ? null : v;
    }

    /**
     * What is wrong with the flags for {@code address} ({@code flag: what (got: value)}), or null: a client certificate
     * without its key (or the reverse), TLS files with a plain {@code etcd://} address, an empty user name.
     */
    public String problem(String address) {
        if ((cert == null) != (key == null)) {
            return cert == null ? "--etcd-key: needs --etcd-cert, the certificate of that key (got: " + key + ")"
                    : "--etcd-cert: needs --etcd-key, the private key of that certificate (got: " + cert + ")";
        }
        if ((cacert != null || cert != null) && !address.regionMatches(true, 0, "etcds://", 0, 8)) {
            return (cacert != null ? "--etcd-cacert" : "--etcd-cert") + ": needs an etcds:// address, which speaks"
                    + " TLS (got: " + address + ")";
        }
        if (user != null && user().isBlank()) {
            return "--etcd-user: must be NAME or NAME:PASSWORD (got: " + user + ")";
        }
        return null;
    }

    /** How to reach {@code address}'s members with these flags. */
    public EtcdOptions options(EtcdAddress address, UnaryOperator<String> env) {
        return new EtcdOptions(address.endpoints(), cacert, cert, key, user(), password(env));
    }
}
