package dev.fulcrum.app;

import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.engine.sim.ReplayBackend;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.replay.Comparison;
import dev.fulcrum.replay.ComparisonResult;
import dev.fulcrum.replay.Recording;
import dev.fulcrum.replay.Recordings;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --compare FILE} and its options (docs/REFERENCE.md §6): the side by side over a recording, a table on
 * standard output and, with {@code --out}, {@code result.json}. Exit 0; 2 for anything wrong with the input (a file
 * that cannot be read, an unknown or invalid strategy, a log format that does not compile, a bad config, more than 1%
 * of the recording's lines bad), said on standard error.
 */
public final class CompareOptions {
    @Option(names = "--compare", paramLabel = "FILE", description = "replay a recording (HAR, nginx log, Fulcrum's"
            + " JSON access log) through each of --strategies on simulated backends and print their figures")
    Path compare;

    @Option(names = "--strategies", paramLabel = "LIST", description = "with --compare: comma-separated, each NAME or"
            + " NAME:setting=value[:setting=value], or score:FORMULA or score:@FILE")
    String strategies;

    @Option(names = "--format", paramLabel = "F", description = "with --compare or --replay: har,"
            + " nginx or fulcrum-json"
            + " (default: told by the content)")
    String format;

    @Option(names = "--log-format", paramLabel = "TEXT", description = "with --compare or --replay: the"
            + " nginx log_format string"
            + " (default: combined)")
    String logFormat;

    @Option(names = "--backends", paramLabel = "N", description = "with --compare: N identical simulated backends"
            + " (default: 3, or --config's backends)")
    Integer backends;

    @Option(names = "--out", paramLabel = "FILE", description = "with --compare: write the figures as JSON to FILE")
    Path out;

    /** Where the table goes: standard output (a test gives its own). */
    PrintStream stdout;
    PrintStream stderr;

    /** Whether an option of --compare's own was given (--format and --log-format go with --replay too). */
    boolean givenBesideReplay() {
        return compare != null || strategies != null || backends != null || out != null;
    }

    /** Whether any of these options was given. */
    boolean given() {
        return compare != null || strategies != null || format != null || logFormat != null || backends != null
                || out != null;
    }

    /** Runs the comparison; {@code config} is the command line's {@code --config}, or null. */
    int run(Path config) {
        PrintStream o = stdout != null ? stdout : FulcrumCommand.stdout();
        PrintStream e = stderr != null ? stderr : System.err;
        try {
            return run(config, o, e);
        } finally {
            o.flush();
            e.flush();
        }
    }

    private int run(Path config, PrintStream o, PrintStream e) {
        if (compare == null) {
            e.println("fulcrum: --strategies, --format, --log-format, --backends and --out go with --compare FILE");
            return FulcrumCommand.CONFIG_ERROR;
        }
        if (strategies == null) {
            e.println("fulcrum: --strategies: required with --compare (e.g. round-robin,least-requests)");
            return FulcrumCommand.CONFIG_ERROR;
        }
        if (config != null && backends != null) {
            e.println("fulcrum: --backends: give --config's backends or N identical ones, not both");
            return FulcrumCommand.CONFIG_ERROR;
        }
        if (backends != null && (backends < 1 || backends > 1000)) {
            e.println("fulcrum: --backends: must be between 1 and 1000 (got: " + backends + ")");
            return FulcrumCommand.CONFIG_ERROR;
        }
        List<StrategySpec> specs;
        try {
            specs = dev.fulcrum.replay.StrategyList.parse(strategies);
        } catch (IllegalArgumentException x) {
            e.println(x.getMessage());
            return FulcrumCommand.CONFIG_ERROR;
        }
        List<ReplayBackend> sim;
        if (config != null) {
            try {
                sim = Comparison.backendsOf(ConfigLoader.load(config));
            } catch (ConfigException x) {
                FulcrumCommand.printProblems(x.problems());
                return FulcrumCommand.CONFIG_ERROR;
            } catch (IllegalArgumentException x) {
                for (String line : x.getMessage().split("\n")) {
                    e.println("config error: " + line);
                }
                return FulcrumCommand.CONFIG_ERROR;
            }
        } else {
            sim = ReplayBackend.identical(backends == null ? Comparison.DEFAULT_BACKENDS : backends);
        }
        ComparisonResult result;
        try (Recording rec = Recordings.open(compare, format, logFormat)) {
            result = Comparison.run(rec, sim, specs, f -> { });
            rec.problems().forEach(e::println);
            if (rec.bad() > rec.problems().size()) {
                e.println(compare + ": ... and " + (rec.bad() - rec.problems().size()) + " more bad lines");
            }
            if (rec.bad() > 0) {
                e.println(rec.badSummary());
            }
            if (rec.tooManyBad()) {
                return FulcrumCommand.CONFIG_ERROR;
            }
        } catch (IllegalArgumentException x) {
            e.println("fulcrum: " + x.getMessage());
            return FulcrumCommand.CONFIG_ERROR;
        } catch (IOException | UncheckedIOException x) {
            e.println("fulcrum: --compare: cannot read " + compare + " (" + x.getMessage() + ")");
            return FulcrumCommand.CONFIG_ERROR;
        }
        o.print(result.table());
        if (out != null) {
            try {
                Files.writeString(out, result.toJson(), StandardCharsets.UTF_8);
            } catch (IOException x) {
                e.println("fulcrum: --out: cannot write " + out + " (" + x.getMessage() + ")");
                return 1;
            }
        }
        return 0;
    }
}
