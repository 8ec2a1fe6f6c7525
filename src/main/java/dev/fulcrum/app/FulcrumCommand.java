package dev.fulcrum.app;

import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.replay.ReplayFiles;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sun.misc.Signal;

/**
 * The command line of docs/REFERENCE.md §1: checks a config, runs headless (ready line, SIGTERM drains, exit 0), or
 * hands the window to its {@link WindowLauncher}. An invalid config exits 2 with one line per problem.
 * {@code --lesson FILE --check} goes to the {@link LessonChecker} (docs/REFERENCE.md §5).
 */
@Command(name = "fulcrum", mixinStandardHelpOptions = true, version = "Fulcrum " + FulcrumCommand.VERSION,
        description = "A load balancer you can see: an embedded proxy with every classic balancing strategy and a window onto it.")
public final class FulcrumCommand implements Callable<Integer> {
    /** Fulcrum's version, as {@code --version} and an instance's registration in etcd say it. */
    public static final String VERSION = "0.1.0";
    static final int CONFIG_ERROR = 2;
    private static final Logger LOG = LoggerFactory.getLogger(FulcrumCommand.class);

    private final WindowLauncher window;
    private final LessonChecker lessons;

    /** {@code --config FILE}; null for the embedded default or a config in etcd. */
    Path config;

    /** {@code --config etcd://...} as given; null for a file. */
    String etcdConfig;

    @Option(names = "--config", paramLabel = "FILE|etcd://HOST:PORT[,...]/PREFIX", description = "config file"
            + " (default: the embedded samples/workshop.json), or the config kept in etcd at PREFIX/config, followed"
            + " live (etcds:// for TLS; see --etcd-*)")
    void config(String value) {
        if (dev.fulcrum.etcd.EtcdAddress.is(value)) {
            etcdConfig = value;
            config = null;
        } else {
            config = Path.of(value);
            etcdConfig = null;
        }
    }

    /** {@code --etcd-cacert}, {@code --etcd-cert}, {@code --etcd-key}, {@code --etcd-user}, {@code --instance-id}. */
    @picocli.CommandLine.Mixin
    EtcdFlags etcd = new EtcdFlags();

    /** What {@code --config etcd://...} read before anything started; null otherwise. */
    EtcdConfigSource.Start etcdStart;

    @CommandLine.Parameters(arity = "0..1", paramLabel = "FILE", description = "a file to open, as the file manager"
            + " hands it: a .har recording is replayed through the window's engine (--replay FILE), any other file is"
            + " the config (--config FILE)")
    Path file;

    @Option(names = "--headless", description = "run the engine alone: proxy and admin API, no window")
    boolean headless;

    @Option(names = "--check-config", paramLabel = "FILE", description = "validate FILE, print ok or every error, exit 0 or 2")
    Path checkConfig;

    @Option(names = "--proxy-port", paramLabel = "N", description = "override proxy.port (0 = any free port)")
    Integer proxyPort;

    @Option(names = "--admin-port", paramLabel = "N", description = "override admin.port (0 = any free port)")
    Integer adminPort;

    @Option(names = "--tls-port", paramLabel = "N", description = "override proxy.tls.port (0 = any free port)")
    Integer tlsPort;

    @Option(names = "--trust", description = "create Fulcrum's local certificate authority if needed, issue the HTTPS"
            + " certificate from it and install the authority where browsers look; prints what it did and could not")
    boolean trust;

    @Option(names = "--untrust", description = "remove Fulcrum's local certificate authority from the browsers' stores")
    boolean untrust;

    @Option(names = "--attach", paramLabel = "URL", description = "manage a remote Fulcrum (http://host:adminport), an"
            + " HAProxy fleet (haproxy://host:port[,host:port...]) or the Fulcrums sharing a config in etcd"
            + " (etcd://host:port[,host:port...]/prefix; etcds:// for TLS)")
    String attach;


    @Option(names = "--token", paramLabel = "T", description = "admin token for --attach (default: $FULCRUM_TOKEN)")
    String token;

    @Option(names = "--no-traffic", description = "on the embedded default config, open the window without the gentle"
            + " traffic it otherwise starts (Start traffic on the Live tab sends some)")
    boolean noTraffic;

    @Option(names = "--lesson", paramLabel = "FILE", description = "a lesson file (samples/lessons/*.json), with --check")
    Path lesson;

    @Option(names = "--check", description = "with --lesson: play every step on a fresh engine, print a line per"
            + " expectation, exit 0 when all held, 1 when one failed, 2 for an invalid file")
    boolean checkLesson;

    @Option(names = "--step-pause", paramLabel = "SECONDS", description = "with --lesson --check: the presenter's talk"
            + " before each Next, traffic and timers going on meanwhile (default: 0)")
    Double stepPause;

    /** {@code --compare FILE} and the options that go with it (docs/REFERENCE.md §6). */
    @picocli.CommandLine.Mixin
    CompareOptions comparison = new CompareOptions();

    // plugin strategies (docs/PLUGINS.md): the flag, and their loading before any config is read
    @Option(names = "--plugins", paramLabel = "DIR", description = "load plugin strategies from the jars in DIR"
            + " (repeatable; $XDG_CONFIG_HOME/fulcrum/plugins is always looked in)")
    List<Path> plugins = new java.util.ArrayList<>();

    /** Registers the plugins' strategies; a problem is printed as one line naming the jar (then exit 2). */
    private boolean loadPlugins() {
        try {
            PluginLoader.loadAndRegister(plugins, PluginLoader.defaultDirectory());
            return true;
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.flush();
            return false;
        }
    }

    FulcrumCommand(WindowLauncher window) {
        this(window, null);
    }

    FulcrumCommand(WindowLauncher window, LessonChecker lessons) {
        this.window = window;
        this.lessons = lessons;
    }

    /** Parses {@code args} and does what they say; returns the process exit code (after the window closed, if any). */
    public static int run(String[] args, WindowLauncher window) {
        return run(args, window, null);
    }

    /** As {@link #run(String[], WindowLauncher)}, with {@code --lesson FILE --check} done by {@code lessons}. */
    public static int run(String[] args, WindowLauncher window, LessonChecker lessons) {
        return new CommandLine(new FulcrumCommand(window, lessons)).setCaseInsensitiveEnumValuesAllowed(true)
                .execute(args);
    }

    @Override
    public Integer call() {
        if (file != null && !openAsGiven()) {
            return CONFIG_ERROR;
        }
        if (!trust && !untrust && !loadPlugins()) {
            return CONFIG_ERROR;
        }
        if (checkConfig != null) {
            return check(checkConfig);
        }
        if (comparison.given() && (replay == null || comparison.givenBesideReplay())) {
            return comparison.run(config);
        }
        if (lesson != null || checkLesson || stepPause != null) {
            if (lesson == null || !checkLesson) {
                System.err.println("fulcrum: --lesson FILE and --check go together (the window plays lessons from"
                        + " its Lessons tab)");
                return CONFIG_ERROR;
            }
            if (lessons == null) {
                System.err.println("fulcrum: --lesson: no lessons in this build");
                return CONFIG_ERROR;
            }
            if (stepPause != null && (!(stepPause >= 0) || stepPause > 600)) {
                System.err.println("fulcrum: --step-pause: must be between 0 and 600 seconds (got: " + stepPause + ")");
                return CONFIG_ERROR;
            }
            return lessons.check(lesson, stepPause == null ? 0 : Math.round(stepPause * 1000));
        }
        if (trust || untrust) {
            List<String> names;
            try {
                names = loadConfig().proxy().tls().names();
            } catch (ConfigException e) {
                printProblems(e.problems());
                return CONFIG_ERROR;
            } catch (EtcdStartProblem e) {
                System.err.println("fulcrum: " + e.getMessage());
                return CONFIG_ERROR;
            } finally {
                closeEtcd();
            }
            LocalTrust t = LocalTrust.forUser(stdout());
            return trust ? t.trust(names) : t.untrust();
        }
        if (etcd.given() && etcdConfig == null && !dev.fulcrum.etcd.EtcdAddress.is(attach)) {
            System.err.println("fulcrum: --etcd-cacert, --etcd-cert, --etcd-key, --etcd-user and --instance-id go"
                    + " with --config etcd://... or --attach etcd://...");
            return CONFIG_ERROR;
        }
        if (attach != null) {
            String token = dev.fulcrum.admin.HttpEngineClient.token(this.token, System::getenv);
            return dev.fulcrum.etcd.EtcdAddress.is(attach) ? attachEtcd(token) : window.attach(attach, token);
        }
        FulcrumConfig cfg;
        try {
            cfg = loadConfig();
        } catch (ConfigException e) {
            printProblems(e.problems());
            closeEtcd();
            return CONFIG_ERROR;
        } catch (EtcdStartProblem e) {
            System.err.println("fulcrum: " + e.getMessage());
            closeEtcd();
            return CONFIG_ERROR;
        }
        int replayProblem = checkReplay();
        if (replayProblem >= 0) {
            closeEtcd();
            return replayProblem;
        }
        if (headless) {
            return runHeadless(cfg);
        }
        if (config == null && etcdConfig == null) { // the embedded default config: a port no flag names is nobody's choice
            FreePorts ports = FreePorts.choose(cfg, proxyPort == null, adminPort == null, this::overrides);
            if (ports.note() != null) {
                LOG.warn("{}", ports.note());
            }
            // the default config opens on something to see: gentle traffic, unless the command line says not to
            // (or a replay is what it sends)
            return window.embedded(ports.apply(cfg), config, ports, !noTraffic && replayChecked == null,
                    replayChecked, replaySpeed());
        }
        return window.embedded(cfg, config, etcdStart != null ? etcdStart : this::overrides, false, replayChecked,
                replaySpeed());
    }

    /**
     * {@code --attach etcd://...}: the address and the {@code --etcd-*} flags checked here (a bad one is one line and
     * exit 2), the window opened on the fleet.
     */
    private int attachEtcd(String token) {
        try {
            etcd.options(dev.fulcrum.etcd.EtcdAddress.parse(attach), System::getenv);
        } catch (IllegalArgumentException e) {
            System.err.println("fulcrum: --attach " + attach + ": " + e.getMessage());
            return CONFIG_ERROR;
        }
        return window.attach(attach, token, etcd);
    }

    /** Why {@code --config etcd://...} cannot start: one line naming the flag, the endpoints or the key. */
    static final class EtcdStartProblem extends RuntimeException {
        EtcdStartProblem(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * The config the command line names, the command line's ports over it.
     *
     * @throws ConfigException   with every problem of an invalid config
     * @throws EtcdStartProblem  when a config in etcd cannot be read
     */
    FulcrumConfig loadConfig() {
        FulcrumConfig cfg = overrides(etcdConfig != null ? readEtcd().config()
                : config == null ? ConfigLoader.workshop() : ConfigLoader.load(config));
        if (proxyPort != null || adminPort != null || tlsPort != null) {
            // checked as if written in the file: a port out of range or one the other listener has is a config error
            List<ConfigProblem> problems = dev.fulcrum.config.ConfigValidator.validate(cfg);
            if (!problems.isEmpty()) {
                throw new ConfigException(problems);
            }
        }
        return cfg;
    }

    /** Reads {@code --config etcd://...} once ({@link #etcdStart}), before anything starts. */
    private EtcdConfigSource.Start readEtcd() {
        dev.fulcrum.etcd.EtcdAddress address;
        String instanceId;
        dev.fulcrum.etcd.EtcdClient client;
        try {
            address = dev.fulcrum.etcd.EtcdAddress.parse(etcdConfig);
        } catch (IllegalArgumentException e) {
            throw new EtcdStartProblem("--config: " + e.getMessage(), e);
        }
        try {
            instanceId = etcd.instanceId();
            client = new dev.fulcrum.etcd.EtcdClient(etcd.options(address, System::getenv));
        } catch (IllegalArgumentException e) {
            throw new EtcdStartProblem(e.getMessage(), e);
        }
        try {
            etcdStart = EtcdConfigSource.read(address, client, instanceId, this::overrides);
        } catch (IllegalStateException e) {
            client.close();
            throw new EtcdStartProblem(e.getMessage(), e);
        }
        LOG.info("config from {} at revision {}; this instance is {}", address.configKey(), etcdStart.revision(),
                instanceId);
        return etcdStart;
    }

    /** Closes the client {@code --config etcd://...} opened, when what it read is not used. */
    private void closeEtcd() {
        if (etcdStart != null) {
            etcdStart.client().close();
        }
    }

    /** The command line's ports over a config's: at start, and on every later config (an edit, a PUT) alike. */
    FulcrumConfig overrides(FulcrumConfig cfg) {
        if (proxyPort != null) {
            cfg = cfg.withProxyPort(proxyPort);
        }
        if (adminPort != null) {
            cfg = cfg.withAdminPort(adminPort);
        }
        if (tlsPort != null) {
            cfg = cfg.withTlsPort(tlsPort);
        }
        return cfg;
    }

    static int check(Path file) {
        List<ConfigProblem> problems = ConfigLoader.check(file);
        if (problems.isEmpty()) {
            String tlsProblem = tlsProblem(ConfigLoader.load(file));
            if (tlsProblem != null) {
                System.err.println("config error: " + tlsProblem);
                return CONFIG_ERROR;
            }
            stdout().println("ok");
            stdout().flush();
            return 0;
        }
        printProblems(problems);
        return CONFIG_ERROR;
    }

    /** PEM files are parsed, not just found, so --check-config catches a broken key before a start does. */
    static String tlsProblem(FulcrumConfig cfg) {
        var tls = cfg.proxy().tls();
        if (!tls.enabled() || tls.certificate() == null) {
            return null;
        }
        try {
            dev.fulcrum.proxy.TlsContexts.fromPem(Path.of(tls.certificate()), Path.of(tls.privateKey()));
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    static void printProblems(List<ConfigProblem> problems) {
        for (ConfigProblem p : problems) {
            System.err.println(p);
        }
        System.err.flush();
    }

    /**
     * {@code fulcrum FILE}, how the desktop opens a {@code .har} or a Fulcrum config (the package's file types): a
     * recording is {@code --replay FILE}, anything else {@code --config FILE}; the same one given both ways is refused.
     */
    private boolean openAsGiven() {
        boolean recording = file.getFileName() != null
                && file.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".har");
        if (recording ? replay != null : config != null || etcdConfig != null) {
            System.err.println("fulcrum: " + file + ": give the " + (recording ? "recording" : "config")
                    + " once, as FILE or with " + (recording ? "--replay" : "--config") + ", not both");
            return false;
        }
        if (recording) {
            replay = file;
        } else {
            config = file;
        }
        return true;
    }

    // ---------------------------------------------------------------- --replay FILE [--speed X], docs/REFERENCE.md §1

    @Option(names = "--replay", paramLabel = "FILE", description = "once the proxy listens, send the requests"
            + " recorded in FILE (HAR, nginx access log, Fulcrum's JSON access log) through it at their recorded times;"
            + " headless prints its progress and a summary line on standard error and keeps running")
    Path replay;

    @Option(names = "--speed", paramLabel = "X", description = "with --replay: X times as fast as recorded,"
            + " 0.01-1000 (default: 1)")
    Double speed;

    /** The --replay recording, read through once before anything starts; null without --replay. */
    ReplayFiles.Checked replayChecked;

    /** --speed, or 1. */
    double replaySpeed() {
        return speed == null ? 1 : speed;
    }

    /** The --format of the recording (har, nginx, fulcrum-json), or null to tell it by its content. */
    String replayFormat() {
        return comparison.format;
    }

    /** The --log-format of an nginx recording, or null for combined. */
    String replayLogFormat() {
        return comparison.logFormat;
    }

    /**
     * Reads the --replay recording through once, before anything starts, and prints its bad lines
     * ({@code FILE:LINE: reason}) on standard error: the exit code when it cannot be replayed (a flag out of range,
     * a file that cannot be read, more than 1% of its lines bad), -1 when it can (or there is none).
     */
    int checkReplay() {
        if (replay == null) {
            if (speed != null) {
                System.err.println("fulcrum: --speed goes with --replay FILE");
                return CONFIG_ERROR;
            }
            return -1;
        }
        try {
            dev.fulcrum.replay.LiveReplay.requireSpeed(replaySpeed());
        } catch (IllegalArgumentException e) {
            System.err.println("fulcrum: --" + e.getMessage());
            return CONFIG_ERROR;
        }
        ReplayFiles.Checked c;
        try {
            c = ReplayFiles.check(replay, replayFormat(), replayLogFormat());
        } catch (IllegalArgumentException e) {
            System.err.println("fulcrum: " + e.getMessage());
            return CONFIG_ERROR;
        } catch (java.nio.file.NoSuchFileException e) {
            System.err.println("fulcrum: --replay: " + replay + ": no such file");
            return CONFIG_ERROR;
        } catch (java.io.IOException | java.io.UncheckedIOException e) {
            System.err.println("fulcrum: --replay: " + replay + ": " + e.getMessage());
            return CONFIG_ERROR;
        }
        c.problems().forEach(System.err::println);
        if (c.bad() > 0) {
            System.err.println(c.badSummary());
        }
        System.err.flush();
        if (c.tooManyBad()) {
            return CONFIG_ERROR;
        }
        replayChecked = c;
        return -1;
    }

    /** Starts the checked replay through the proxy at {@code proxyUrl}, its lines on standard error. */
    void startReplay(String proxyUrl) {
        java.net.URI p = java.net.URI.create(proxyUrl);
        String host = p.getHost();
        if (host == null || host.equals("0.0.0.0") || host.equals("[::]") || host.equals("[0:0:0:0:0:0:0:0]")) {
            host = "127.0.0.1"; // a wildcard listener is reached on loopback
        }
        java.net.URI target = java.net.URI.create(p.getScheme() + "://" + host + ":" + p.getPort());
        dev.fulcrum.replay.ReplayConsole.start(dev.fulcrum.replay.LiveReplay.of(replayChecked.source(),
                replayChecked.span(), target, replaySpeed(), null), System.err);
    }

    private int runHeadless(FulcrumConfig cfg) {
        FulcrumApp app;
        try {
            app = FulcrumApp.start(cfg, config).overriding(etcdStart != null ? etcdStart : this::overrides);
        } catch (IllegalArgumentException e) {
            closeEtcd();
            if (e.getMessage() != null && e.getMessage().startsWith("proxy.tls.")) {
                System.err.println("config error: " + e.getMessage());
                return CONFIG_ERROR;
            }
            System.err.println("fulcrum: cannot start: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            closeEtcd();
            System.err.println("fulcrum: cannot start: " + e.getMessage());
            LOG.debug("start failed", e);
            return 1;
        }
        if (etcdStart != null) {
            app.follow(etcdStart);
        }
        app.watchConfigFile();
        app.handleOperatorSignals();
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        Signal.handle(new Signal("INT"), s -> stop.countDown());
        if (app.proxy().tlsUrl() != null) {
            LOG.info("HTTPS{} on {}", cfg.proxy().tls().http2() ? " and HTTP/2" : "", app.proxy().tlsUrl());
        }
        stdout().println(app.readyLine());
        stdout().flush();
        if (replayChecked != null) {
            startReplay(app.proxy().url());
        }
        try {
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("shutting down: refusing new requests, letting in-flight ones finish");
        boolean clean = app.shutdownGracefully();
        LOG.info(clean ? "stopped cleanly" : "stopped after the drain timeout with requests still in flight");
        return 0;
    }

    /**
     * Standard output, which carries only the ready line, {@code ok} and a command's answer (logs go to standard
     * error), in UTF-8 whatever the platform's charset (a lesson's lines have arrows, a path may have any letter).
     * Written through System.out: a stream of its own on the file descriptor would bypass whoever holds System.out, as
     * a test runner does, and write into the middle of what it writes there. A new wrapper each call, so it follows a
     * System.out set since.
     */
    public static PrintStream stdout() {
        return new PrintStream(System.out, true, StandardCharsets.UTF_8);
    }
}
