package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code --compare} on the command line (docs/REFERENCE.md §6), run in process: exit codes, output and result.json. */
@DisplayName("--compare FILE: strategies side by side over a recording")
class CompareCommandTest {
    static final String SHOP_FORMAT = "$remote_addr - $remote_user [$time_local] \"$request\" $status "
            + "$body_bytes_sent \"$http_referer\" \"$http_user_agent\" $request_time $upstream_response_time "
            + "\"$upstream_addr\"";
    static final String GOOD = "10.0.0.7 - - [05/Dec/2026:07:00:01 +0000] \"GET /a HTTP/1.1\" 200 5 \"-\" \"-\"\n";

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        FulcrumCommand cmd = new FulcrumCommand(null);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        cmd.comparison.stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
        cmd.comparison.stderr = new PrintStream(err, true, StandardCharsets.UTF_8);
        int code = new CommandLine(cmd).execute(args);
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void theShippedRecordingComparesToATableAndTheSameBytesTwice() throws IOException {
        Path one = dir.resolve("one.json");
        Path two = dir.resolve("two.json");
        String[] args = {"--compare", "samples/recordings/shop.log", "--log-format", SHOP_FORMAT, "--strategies",
            "round-robin,least-requests,consistent-hash:key=path", "--backends", "4", "--out", one.toString()};
        Run r = run(args);
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).startsWith("shop.log (nginx): 5000 requests, 0 bad of 5000 lines, 4 backends\n")
                .contains("round-robin", "least-requests", "consistent-hash", "p999 ms");
        args[args.length - 1] = two.toString();
        assertThat(run(args).code()).isZero();
        assertThat(Files.readAllBytes(two)).isEqualTo(Files.readAllBytes(one));
        String json = Files.readString(one);
        assertThat(json).startsWith("{\n  \"requests\": 5000,\n").contains("\"b4\": {\"requests\": 1250, \"share\": 0.2500");
    }

    @Test
    void moreThanOnePercentOfBadLinesEndsTheRunWithExit2AndEachLine() throws IOException {
        Path log = dir.resolve("access.log");
        Files.writeString(log, GOOD.repeat(97) + "not a log line\n" + GOOD + "\"GET\" 200\n");
        Run r = run("--compare", log.toString(), "--strategies", "round-robin", "--out",
                dir.resolve("r.json").toString());
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains(log + ":98: does not match the log format", log + ":100: ")
                .contains(log + ": 2 of 100 lines could not be read (2.0%, more than 1%)");
        assertThat(dir.resolve("r.json")).doesNotExist();
        Files.writeString(log, GOOD.repeat(99) + "not a log line\n");
        Run ok = run("--compare", log.toString(), "--strategies", "round-robin");
        assertThat(ok.code()).isZero();
        assertThat(ok.err()).contains(log + ": 1 of 100 lines could not be read (1.0%)");
    }

    @Test
    void anUnknownStrategyOrFormatIsNamedWithExit2() throws IOException {
        Path log = dir.resolve("access.log");
        Files.writeString(log, GOOD);
        Run r = run("--compare", log.toString(), "--strategies", "round-robin,least-request");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).startsWith("--strategies: unknown strategy least-request, one of ");
        assertThat(run("--compare", log.toString(), "--strategies", "random", "--log-format", "$status")
                .err()).startsWith("fulcrum: --log-format: needs a time");
        assertThat(run("--compare", log.toString(), "--strategies", "random", "--format", "csv").err())
                .isEqualTo("fulcrum: --format: one of har, nginx, fulcrum-json (got: csv)\n");
        assertThat(run("--compare", dir.resolve("missing.log").toString(), "--strategies", "random").code())
                .isEqualTo(2);
        assertThat(run("--strategies", "random").err())
                .startsWith("fulcrum: --strategies, --format, --log-format, --backends and --out go with --compare");
        assertThat(run("--compare", log.toString()).err()).startsWith("fulcrum: --strategies: required");
    }

    @Test
    void theShippedSlowBackendConfigsSpeedLabelShowsInRoundRobinsP99() throws IOException {
        Path out = dir.resolve("slow.json");
        Run r = run("--compare", "samples/recordings/shop.log", "--log-format", SHOP_FORMAT, "--strategies",
                "round-robin,least-requests", "--config", "samples/recordings/slow-backend.json", "--out",
                out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        var result = dev.fulcrum.replay.ComparisonResult.read(out);
        assertThat(result.backends()).extracting(b -> b.id() + " " + b.speed() + " " + b.workers())
                .containsExactly("a 1.0 0", "b 1.0 0", "slow 0.25 4");
        assertThat(result.strategy("least-requests").p99Ms()).isLessThan(result.strategy("round-robin").p99Ms() / 10);
    }

    @Test
    void aConfigsBackendsAreTheSimulatedOnes() throws IOException {
        Path cfg = dir.resolve("cfg.json");
        Files.writeString(cfg, "{\"backends\": [{\"id\": \"web-1\", \"url\": \"http://127.0.0.1:9001\", \"weight\": 3},"
                + " {\"id\": \"web-2\", \"url\": \"http://127.0.0.1:9002\"}]}");
        Path log = dir.resolve("access.log");
        Files.writeString(log, GOOD.repeat(40));
        Path out = dir.resolve("r.json");
        Run r = run("--compare", log.toString(), "--config", cfg.toString(), "--strategies",
                "smooth-weighted-round-robin", "--out", out.toString());
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(Files.readString(out)).contains("\"web-1\": {\"requests\": 30,", "\"web-2\": {\"requests\": 10,");
        assertThat(run("--compare", log.toString(), "--config", cfg.toString(), "--backends", "2", "--strategies",
                "random").code()).isEqualTo(2);
        Files.writeString(cfg, "{\"backends\": [{\"id\": \"web-1\", \"url\": \"http://127.0.0.1:9001\", \"wieght\": 3}]}");
        assertThat(run("--compare", log.toString(), "--config", cfg.toString(), "--strategies", "random").code())
                .isEqualTo(2);
    }
}
