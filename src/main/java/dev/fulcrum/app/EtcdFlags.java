package dev.fulcrum.app;

import dev.fulcrum.etcd.EtcdAddress;
import dev.fulcrum.etcd.EtcdOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/**
 * The flags that say how to reach etcd for {@code --config etcd://...} and {@code --attach etcd://...}
 * (docs/REFERENCE.md §1 and §8): TLS files, the user and password, and this instance's id. A bad value is an
 * {@link IllegalArgumentException} naming the flag and the value.
 */
public final class EtcdFlags {
    /** The environment variable a password comes from when {@code --etcd-user} gives a name only. */
    public static final String PASSWORD_ENV = "FULCRUM_ETCD_PASSWORD";
    private static final Pattern INSTANCE_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    @Option(names = "--etcd-cacert", paramLabel = "FILE", description = "with etcds://: PEM of the CA that signed the"
            + " etcd members' certificates (default: the JDK's trust store)")
    Path caCert;

    @Option(names = "--etcd-cert", paramLabel = "FILE", description = "PEM client certificate for etcd's"
            + " --client-cert-auth (with --etcd-key)")
    Path cert;

    @Option(names = "--etcd-key", paramLabel = "FILE", description = "PEM private key of --etcd-cert")
    Path key;

    @Option(names = "--etcd-user", paramLabel = "NAME[:PASSWORD]", description = "etcd user; the password after the"
            + " colon, or else from $" + PASSWORD_ENV)
    String user;

    @Option(names = "--instance-id", paramLabel = "ID", description = "with --config etcd://: this instance's name"
            + " under PREFIX/instances/ ([A-Za-z0-9._-], 1-64; default: HOSTNAME-PID)")
    String instanceId;

    /** Whether any of these flags was given (they mean nothing without an etcd address). */
    public boolean given() {
        return caCert != null || cert != null || key != null || user != null || instanceId != null;
    }

    /** How to reach the cluster {@code address} names, with these flags; {@code env} gives the password. */
    public EtcdOptions options(EtcdAddress address, Function<String, String> env) {
        if ((cert == null) != (key == null)) {
            throw new IllegalArgumentException(cert == null
                    ? "--etcd-key: goes with --etcd-cert (got: " + key + ")"
                    : "--etcd-cert: goes with --etcd-key (got: " + cert + ")");
        }
        boolean https = address.endpoints().stream().anyMatch(u -> "https".equals(u.getScheme()));
        for (Path file : new Path[] {caCert, cert, key}) {
            if (file != null && !https) {
                throw new IllegalArgumentException(flagOf(file) + ": TLS files go with an etcds:// address (got: "
                        + address + ")");
            }
            if (file != null && !Files.isReadable(file)) {
                throw new IllegalArgumentException(flagOf(file) + ": no such readable file (got: " + file + ")");
            }
        }
        String name = null;
        String password = null;
        if (user != null) {
            int colon = user.indexOf(':');
            name = colon < 0 ? user : user.substring(0, colon);
            password = colon < 0 ? env.apply(PASSWORD_ENV) : user.substring(colon + 1);
            if (name.isEmpty()) {
                throw new IllegalArgumentException("--etcd-user: a name is needed before the colon (got: " + user
                        + ")");
            }
            if (password == null) {
                throw new IllegalArgumentException("--etcd-user: no password: give NAME:PASSWORD or set "
                        + PASSWORD_ENV + " (got: " + name + ")");
            }
        }
        return new EtcdOptions(address.endpoints(), caCert, cert, key, name, password);
    }

    private String flagOf(Path file) {
        return file == caCert ? "--etcd-cacert" : file == cert ? "--etcd-cert" : "--etcd-key";
    }

    /** {@code --instance-id}, or {@code HOSTNAME-PID} made to fit the id's alphabet. */
    public String instanceId() {
        if (instanceId != null) {
            if (!INSTANCE_ID.matcher(instanceId).matches()) {
                throw new IllegalArgumentException("--instance-id: must be 1 to 64 of A-Z a-z 0-9 . _ - (got: "
                        + instanceId + ")");
            }
            return instanceId;
        }
        return defaultInstanceId(hostName(), ProcessHandle.current().pid());
    }

    static String defaultInstanceId(String host, long pid) {
        String suffix = "-" + pid;
        String h = host == null || host.isBlank() ? "fulcrum" : host.replaceAll("[^A-Za-z0-9._-]", "-");
        return h.substring(0, Math.min(h.length(), 64 - suffix.length())) + suffix;
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return System.getenv("HOSTNAME");
        }
    }
}
