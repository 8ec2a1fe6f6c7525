package dev.fulcrum.admin;

import dev.fulcrum.config.BackendConfig;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.config.RouteConfig;
import dev.fulcrum.config.StickyConfig;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.strategy.StrategySpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Shared pieces of the export tests: configs covering every exported feature, an engine running them, the proxy
 * binaries and a bounded way to run them. Not a test itself.
 */
final class ExportFixturesForTest {
    private ExportFixturesForTest() {
    }

    /** Every strategy with a non-default key or option where it has one, so each mapping branch is written. */
    static List<StrategySpec> everyStrategy() {
        List<StrategySpec> out = new ArrayList<>();
        for (String type : StrategySpec.TYPES) {
            out.add(StrategySpec.of(type));
        }
        out.add(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "header:X-User-Id").with("virtualNodes", 100).with("balanceFactor", 1.25).withDefaults());
        out.add(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "cookie:session").withDefaults());
        out.add(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "query:user").withDefaults());
        out.add(StrategySpec.bare(StrategySpec.MAGLEV).with("key", "path").with("tableSize", 65537).withDefaults());
        out.add(StrategySpec.bare(StrategySpec.POWER_OF_TWO).with("choices", 3).withDefaults());
        return out;
    }

    /**
     * A config using every feature the export writes: the given strategy on the default pool with a heavy backend
     * (weight 3), a light one, a capped one and a backup; a least-requests pool {@code api} reached through a
     * stripping route {@code /api} and a plain route {@code /static/}; sticky sessions and slow start.
     */
    static FulcrumConfig richConfig(StrategySpec strategy) {
        FulcrumConfig base = FulcrumConfig.of(strategy, List.of(
                BackendConfig.of("a", "http://127.0.0.1:9001", 3),
                BackendConfig.of("b", "http://127.0.0.1:9002", 1),
                new BackendConfig("c", "http://127.0.0.1:9003", 2, 10, false),
                new BackendConfig("spare", "http://127.0.0.1:9004", 1, null, true)), List.of());
        FulcrumConfig withPools = base.withPools(Map.of("api", new PoolConfig(
                StrategySpec.of(StrategySpec.LEAST_REQUESTS),
                List.of(BackendConfig.of("api-1", "http://127.0.0.1:9011", 1),
                        BackendConfig.of("api-2", "http://127.0.0.1:9012", 900)), List.of())));
        return new FulcrumConfig(withPools.proxy(), withPools.admin(), withPools.strategy(), withPools.backends(),
                withPools.demoBackends(), withPools.healthCheck(), withPools.outlierDetection(),
                withPools.circuitBreaker(), withPools.retries(), withPools.timeouts(), 10_000,
                new StickyConfig(true, "FULCRUM_STICKY", 3600, null), withPools.pools(),
                List.of(new RouteConfig("/api", "api", true), new RouteConfig("/static/", "api", false)));
    }

    /**
     * A config at the edges: an empty pool with an odd name, a route on "/" and one with a space, a backend by host
     * name, weight 0 and weight 1000, every policy switched off, TLS on, port 0, the client's Host not kept.
     */
    static FulcrumConfig edgeConfig() {
        FulcrumConfig base = FulcrumConfig.of(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "header:X-Id"),
                List.of(BackendConfig.of("a", "http://127.0.0.1:9001", 1000),
                        BackendConfig.of("b", "http://127.0.0.1:9002", 0),
                        new BackendConfig("c", "http://127.0.0.1:9003", 1, 5, true)), List.of());
        Map<String, PoolConfig> pools = new java.util.LinkedHashMap<>();
        pools.put("odd pool.v2", new PoolConfig(StrategySpec.of(StrategySpec.POWER_OF_TWO), List.of(), List.of()));
        pools.put("x", new PoolConfig(StrategySpec.of(StrategySpec.IP_HASH),
                List.of(BackendConfig.of("h", "http://localhost:9100", 2)), List.of()));
        return new FulcrumConfig(
                new dev.fulcrum.config.ProxyConfig("127.0.0.1", 0, 16_000, 5_000, null, false,
                        new dev.fulcrum.config.TlsConfig(true, 8443, null, null, true), 4),
                base.admin(), base.strategy(), base.backends(), base.demoBackends(),
                new dev.fulcrum.config.HealthCheckConfig(false, "/health", 2000, 1000, 200, 2, 3),
                new dev.fulcrum.config.OutlierConfig(false, 5, 30_000, 50),
                new dev.fulcrum.config.BreakerConfig(false, 20, 10, 50, 2000, 100, 10_000, 3),
                new dev.fulcrum.config.RetryConfig(0, true), base.timeouts(), 0, null, pools,
                List.of(new RouteConfig("/", "x", false), new RouteConfig("/a b/", "odd pool.v2", true),
                        new RouteConfig("/deep/er", "default", true)));
    }

    /**
     * A real engine running the config's pools and members. Pools run round-robin: only the export reads the
     * configured strategy, which the engine on this branch may not have.
     */
    static Engine engine(FulcrumConfig config) {
        Engine e = Engine.start(config.toEngineSettings());
        config.allPools().forEach((name, pool) -> {
            e.addPool(name, StrategySpec.of(StrategySpec.ROUND_ROBIN));
            pool.backendSpecs().forEach(s -> e.addBackend(name, s, false));
        });
        e.setRouter(config.toRouter());
        return e;
    }

    /** The binary at {@code /usr/sbin/NAME} or on the PATH, or null when this machine does not have it. */
    static Path binary(String name) {
        List<String> dirs = new ArrayList<>(List.of("/usr/sbin", "/usr/local/sbin", "/usr/bin", "/usr/local/bin"));
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(java.io.File.pathSeparator)));
        }
        for (String d : dirs) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** What a finished command printed and returned. */
    record Result(int exitCode, String output) {
    }

    /** Runs a command to completion, output and errors together, killed after {@code timeout}. */
    static Result run(List<String> command, Duration timeout) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new AssertionError("did not finish within " + timeout + ": " + command);
            }
            return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * A complete nginx.conf around the exported http-level text, with every path nginx writes (pid, logs, temp
     * directories) inside {@code dir}, so it runs without root.
     */
    static Path nginxConf(Path dir, String exported) {
        String d = dir.toAbsolutePath().toString();
        String conf = "pid " + d + "/nginx.pid;\n"
                + "error_log " + d + "/error.log warn;\n"
                + "worker_processes 1;\n"
                + "events {\n    worker_connections 256;\n}\n"
                + "http {\n"
                + "    access_log off;\n"
                + "    client_body_temp_path " + d + "/client_body;\n"
                + "    proxy_temp_path " + d + "/proxy;\n"
                + "    fastcgi_temp_path " + d + "/fastcgi;\n"
                + "    uwsgi_temp_path " + d + "/uwsgi;\n"
                + "    scgi_temp_path " + d + "/scgi;\n"
                + exported.indent(4)
                + "}\n";
        try {
            Path f = dir.resolve("nginx.conf");
            Files.writeString(f, conf);
            return f;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code nginx -t} on the config file. */
    static List<String> nginxTest(Path nginx, Path conf) {
        List<String> cmd = nginxCommand(nginx, conf);
        cmd.add(1, "-t");
        return cmd;
    }

    /**
     * nginx with its prefix in the config's directory and that config. Where nginx has {@code -e} (1.19.5 and later)
     * its error log goes there too, instead of the system's error log a non-root user cannot open.
     */
    static List<String> nginxCommand(Path nginx, Path conf) {
        Path dir = conf.getParent().toAbsolutePath();
        List<String> cmd = new ArrayList<>(List.of(nginx.toString(), "-p", dir + "/"));
        if (nginxHasErrorLogFlag(nginx)) {
            cmd.addAll(List.of("-e", dir.resolve("error.log").toString()));
        }
        cmd.addAll(List.of("-c", conf.toAbsolutePath().toString()));
        return cmd;
    }

    private static boolean nginxHasErrorLogFlag(Path nginx) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("nginx/(\\d+)\\.(\\d+)\\.(\\d+)")
                .matcher(run(List.of(nginx.toString(), "-v"), Duration.ofSeconds(10)).output());
        if (!m.find()) {
            return false;
        }
        int[] v = {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))};
        return v[0] > 1 || v[1] > 19 || v[1] == 19 && v[2] >= 5;
    }
}
