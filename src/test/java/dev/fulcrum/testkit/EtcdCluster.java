package dev.fulcrum.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fulcrum.etcd.EtcdOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Real etcd members ({@code /usr/bin/etcd}) on loopback ports picked free, each with a data dir in one temp dir:
 * {@link #single()} for most tests, {@link #of(int) of(3)} for the fault tests, {@link #secure()} for TLS with
 * client certificates and auth. Every method returns once each running member answers a real request (through
 * {@code etcdctl endpoint health}, which reads a key), so a test starts on a cluster that serves.
 * {@link Member#kill()} is a {@code SIGKILL} (no goodbye to its peers or clients), {@link Member#start()} starts it
 * again on the same data dir and ports. {@link #close()} kills every member and deletes the dir. Skips the test
 * where etcd is not installed ({@code apt-get install etcd-server etcd-client}).
 *
 * <p>Example: {@code try (EtcdCluster etcd = EtcdCluster.of(3)) { etcd.member(0).kill(); ... }}.
 */
public final class EtcdCluster implements AutoCloseable {
    private static final Path ETCD = Path.of("/usr/bin/etcd");
    private static final Path ETCDCTL = Path.of("/usr/bin/etcdctl");
    /** How long a member may take to answer after it was started (a three-member cluster elects a leader). */
    private static final Duration HEALTHY_WITHIN = Duration.ofSeconds(30);
    private static final String ROOT_PASSWORD = "root-secret-35";

    private final Path dir;
    private final List<Member> members = new ArrayList<>();
    private final boolean secure;
    private Thread hook;

    private EtcdCluster(Path dir, boolean secure) {
        this.dir = dir;
        this.secure = secure;
    }

    /** One member. */
    public static EtcdCluster single() {
        return of(1);
    }

    /** {@code size} members in one cluster ({@code --initial-cluster}). */
    public static EtcdCluster of(int size) {
        return create(size, false);
    }

    /**
     * One member on https with {@code --client-cert-auth}: a CA, a server certificate for 127.0.0.1 and a client
     * certificate made with openssl in the temp dir ({@link #ca()}, {@link #clientCert()}, {@link #clientKey()}); a
     * user {@code root} with {@link #password()} and auth enabled.
     */
    public static EtcdCluster secure() {
        EtcdCluster c = create(1, true);
        try {
            c.etcdctlAs(false, "user", "add", "root:" + ROOT_PASSWORD);
            c.etcdctlAs(false, "auth", "enable");
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    private static EtcdCluster create(int size, boolean secure) {
        assumeTrue(Files.isExecutable(ETCD) && Files.isExecutable(ETCDCTL),
                "etcd is not installed at " + ETCD + " and " + ETCDCTL + " (apt-get install etcd-server etcd-client)");
        Path dir;
        try {
            dir = Files.createTempDirectory("fulcrum-etcd-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        EtcdCluster c = new EtcdCluster(dir, secure);
        // A test JVM ended by a timeout (SIGTERM) kills its members too; close() removes the hook.
        c.hook = new Thread(c::close, "etcd-cluster-close");
        Runtime.getRuntime().addShutdownHook(c.hook);
        try {
            if (secure) {
                c.makeCertificates();
            }
            int[] ports = FreePort.loopback(2 * size);
            for (int i = 0; i < size; i++) {
                c.members.add(c.new Member(i, ports[2 * i], ports[2 * i + 1]));
            }
            String initial = String.join(",", c.members.stream().map(m -> m.name + "=" + m.peerUrl()).toList());
            for (Member m : c.members) {
                m.initialCluster = initial;
                m.launch();
            }
            for (Member m : c.members) {
                m.awaitHealthy();
            }
        } catch (RuntimeException | Error e) {
            c.close();
            throw e;
        }
        return c;
    }

    /** Every member's client URL, in member order. */
    public List<URI> endpoints() {
        return members.stream().map(Member::endpoint).toList();
    }

    /** Options reaching every member (with the CA, client certificate and root user when secure). */
    public EtcdOptions options() {
        return secure ? new EtcdOptions(endpoints(), ca(), clientCert(), clientKey(), user(), password())
                : EtcdOptions.plain(endpoints());
    }

    public Member member(int i) {
        return members.get(i);
    }

    public int size() {
        return members.size();
    }

    /** Kills every member ({@code SIGKILL}). */
    public void stopAll() {
        members.forEach(Member::kill);
    }

    /** Starts every member that is not running, then waits until each answers. */
    public void startAll() {
        for (Member m : members) {
            if (!m.running()) {
                m.launch();
            }
        }
        members.forEach(Member::awaitHealthy);
    }

    /**
     * Runs {@code etcdctl} against every member (with the CA, client certificate and root user when secure) and
     * returns what it printed; a non-zero exit fails with its output. Example: {@code etcdctl("put", "/k", "v")}.
     */
    public String etcdctl(String... args) {
        return etcdctlAs(secure, args);
    }

    private String etcdctlAs(boolean asRoot, String... args) {
        List<String> cmd = new ArrayList<>(List.of(ETCDCTL.toString(), "--endpoints",
                String.join(",", endpoints().stream().map(URI::toString).toList()), "--dial-timeout", "2s",
                "--command-timeout", "5s"));
        if (secure) {
            cmd.addAll(List.of("--cacert", ca().toString(), "--cert", clientCert().toString(), "--key",
                    clientKey().toString()));
        }
        if (asRoot) {
            cmd.addAll(List.of("--user", user() + ":" + password()));
        }
        cmd.addAll(List.of(args));
        Run r = run(cmd, Duration.ofSeconds(15));
        if (r.exit != 0) {
            throw new IllegalStateException("etcdctl " + String.join(" ", args) + " exited " + r.exit + ": " + r.output);
        }
        return r.output;
    }

    public Path ca() {
        return dir.resolve("ca.pem");
    }

    public Path clientCert() {
        return dir.resolve("client.pem");
    }

    public Path clientKey() {
        return dir.resolve("client-key.pem");
    }

    public String user() {
        return "root";
    }

    public String password() {
        return ROOT_PASSWORD;
    }

    /** The temp dir (members' data dirs and logs {@code mN.log}, certificates). */
    public Path dir() {
        return dir;
    }

    /** Kills every member and deletes the temp dir. */
    @Override
    public void close() {
        members.forEach(Member::kill);
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down already: the hook runs this again, harmlessly
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // Nothing more to do: the dir is under the system's temp dir.
        }
    }

    /** One etcd process. */
    public final class Member {
        final String name;
        final int clientPort;
        final int peerPort;
        String initialCluster;
        private Process process;

        Member(int index, int clientPort, int peerPort) {
            this.name = "m" + index;
            this.clientPort = clientPort;
            this.peerPort = peerPort;
        }

        /** Its client URL, {@code http://127.0.0.1:PORT} ({@code https} when secure). */
        public URI endpoint() {
            return URI.create((secure ? "https" : "http") + "://127.0.0.1:" + clientPort);
        }

        String peerUrl() {
            return "http://127.0.0.1:" + peerPort;
        }

        public boolean running() {
            return process != null && process.isAlive();
        }

        /** {@code SIGKILL}, and waits until the process is gone (its ports are closed then). */
        public synchronized void kill() {
            if (process == null) {
                return;
            }
            process.destroyForcibly();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("etcd " + name + " (pid " + process.pid() + ") outlived SIGKILL");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }

        /** Starts it again on its data dir and ports, and waits until it answers. */
        public void start() {
            if (!running()) {
                launch();
            }
            awaitHealthy();
        }

        synchronized void launch() {
            String client = endpoint().toString();
            List<String> cmd = new ArrayList<>(List.of(ETCD.toString(), "--name", name,
                    "--data-dir", dir.resolve(name).toString(),
                    "--listen-client-urls", client, "--advertise-client-urls", client,
                    "--listen-peer-urls", peerUrl(), "--initial-advertise-peer-urls", peerUrl(),
                    "--initial-cluster", initialCluster, "--initial-cluster-state", "new",
                    "--initial-cluster-token", dir.getFileName().toString(), "--logger", "zap"));
            if (secure) {
                cmd.addAll(List.of("--cert-file", dir.resolve("server.pem").toString(),
                        "--key-file", dir.resolve("server-key.pem").toString(),
                        "--client-cert-auth", "--trusted-ca-file", ca().toString()));
            }
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile()));
            try {
                process = pb.start();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start " + ETCD, e);
            }
        }

        /** Waits until it serves a real request ({@code etcdctl endpoint health} reads a key through raft). */
        void awaitHealthy() {
            List<String> cmd = new ArrayList<>(List.of(ETCDCTL.toString(), "--endpoints", endpoint().toString(),
                    "--dial-timeout", "1s", "--command-timeout", "2s"));
            if (secure) {
                cmd.addAll(List.of("--cacert", ca().toString(), "--cert", clientCert().toString(), "--key",
                        clientKey().toString()));
            }
            cmd.addAll(List.of("endpoint", "health"));
            String[] last = {""};
            try {
                Awaitility.await().atMost(HEALTHY_WITHIN).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(100))
                        .until(() -> {
                            if (!running()) {
                                throw new IllegalStateException("etcd " + name + " exited: "
                                        + tail(dir.resolve(name + ".log")));
                            }
                            Run r = run(cmd, Duration.ofSeconds(5));
                            last[0] = r.output;
                            return r.exit == 0;
                        });
                return;
            } catch (ConditionTimeoutException e) {
                // told below, with what etcdctl said last and the member's log
            }
            throw new IllegalStateException("etcd " + name + " at " + endpoint() + " not healthy within "
                    + HEALTHY_WITHIN + ": " + last[0] + "\n" + tail(dir.resolve(name + ".log")));
        }
    }

    /** A CA, a server certificate for IP 127.0.0.1 and a client certificate, made with openssl. */
    private void makeCertificates() {
        Path openssl = Path.of("/usr/bin/openssl");
        assumeTrue(Files.isExecutable(openssl), "openssl is not installed at " + openssl);
        try {
            Files.writeString(dir.resolve("server.ext"), "subjectAltName=IP:127.0.0.1\n"
                    + "extendedKeyUsage=serverAuth,clientAuth\n");
            Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=fulcrum test CA",
                "-keyout", "ca-key.pem", "-out", "ca.pem");
        for (String who : List.of("server", "client")) {
            // The client's subject has no CN: etcd's JSON gateway refuses a client certificate with one (400,
            // "CommonName of client sending a request against gateway will be ignored").
            String subject = who.equals("server") ? "/CN=127.0.0.1" : "/O=fulcrum test client";
            openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", who + "-key.pem",
                    "-out", who + ".csr");
            openssl("x509", "-req", "-in", who + ".csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
                    "-days", "2", "-extfile", who + ".ext", "-out", who + ".pem");
        }
    }

    private void openssl(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add("/usr/bin/openssl");
        cmd.addAll(List.of(args));
        Run r = run(cmd, Duration.ofSeconds(30));
        if (r.exit != 0) {
            throw new IllegalStateException("openssl " + String.join(" ", args) + " exited " + r.exit + ": " + r.output);
        }
    }

    private record Run(int exit, String output) {
    }

    private Run run(List<String> cmd, Duration within) {
        try {
            Path out = Files.createTempFile(dir, "run-", ".out");
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start();
            if (!p.waitFor(within.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor();
                String text = Files.readString(out, StandardCharsets.UTF_8);
                Files.deleteIfExists(out);
                return new Run(-1, "timed out after " + within + ": " + text);
            }
            String text = Files.readString(out, StandardCharsets.UTF_8);
            Files.deleteIfExists(out);
            return new Run(p.exitValue(), text.strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + cmd.get(0), e);
        }
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
