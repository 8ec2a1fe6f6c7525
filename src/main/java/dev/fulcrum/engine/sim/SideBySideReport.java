package dev.fulcrum.engine.sim;

import java.util.List;
import java.util.Locale;

/**
 * The result of one {@link SideBySide} run: a row per strategy over the same trace.
 *
 * @param seed               the run's seed
 * @param requests           requests in the trace
 * @param backends           backend ids, sorted (the CSV's per-backend columns)
 * @param removedBackend     the backend removed for the keys-moved measure, or null
 * @param idealMovedFraction the share of keys that must move when it leaves (its share of the total weight), or
 *                           null
 * @param results            one per strategy, in the order they were requested (the naive WRR last)
 */
public record SideBySideReport(long seed, int requests, List<String> backends, String removedBackend,
                               Double idealMovedFraction, List<StrategyResult> results) {
    public SideBySideReport {
        backends = List.copyOf(backends);
        results = List.copyOf(results);
    }

    /** The row for a strategy label. */
    public StrategyResult result(String strategy) {
        for (StrategyResult r : results) {
            if (r.strategy().equals(strategy)) {
                return r;
            }
        }
        throw new IllegalArgumentException("strategy: not in this report (got: " + strategy + ")");
    }

    /**
     * The report as CSV (RFC 4180, {@code \n} line ends, numbers with a dot and three decimals): a header, then a
     * row per strategy. {@code N/A} where a value does not apply. Columns: {@code strategy}, one
     * {@code requests_<id>} per backend, {@code unrouted}, {@code max_avg_ratio}, {@code max_avg_weighted_ratio},
     * {@code p50_ms}, {@code p99_ms}, {@code mean_ms}, {@code longest_run}, {@code longest_run_backend},
     * {@code keys_moved}, {@code keys_moved_needlessly}, {@code keys_moved_method}.
     */
    public String toCsv() {
        StringBuilder sb = new StringBuilder("strategy");
        for (String b : backends) {
            sb.append(",requests_").append(b);
        }
        sb.append(",unrouted,max_avg_ratio,max_avg_weighted_ratio,p50_ms,p99_ms,mean_ms,longest_run,")
                .append("longest_run_backend,keys_moved,keys_moved_needlessly,keys_moved_method\n");
        for (StrategyResult r : results) {
            sb.append(cell(r.strategy()));
            for (String b : backends) {
                sb.append(',').append(r.requestsPerBackend().getOrDefault(b, 0L));
            }
            sb.append(',').append(r.unrouted())
                    .append(',').append(num(r.maxAvgLoadRatio()))
                    .append(',').append(num(r.maxAvgWeightedRatio()))
                    .append(',').append(num(r.p50Ms()))
                    .append(',').append(num(r.p99Ms()))
                    .append(',').append(num(r.meanMs()))
                    .append(',').append(r.longestRun())
                    .append(',').append(r.longestRunBackend() == null ? "N/A" : cell(r.longestRunBackend()))
                    .append(',').append(r.keysMoved() == null ? "N/A" : num(r.keysMoved()))
                    .append(',').append(r.keysMovedNeedlessly() == null ? "N/A" : num(r.keysMovedNeedlessly()))
                    .append(',').append(cell(r.keysMovedMethod()))
                    .append('\n');
        }
        return sb.toString();
    }

    static String num(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }

    static String cell(String s) {
        if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
            return "\"" + s.replace("\"", "\"\"") + "\"";
        }
        return s;
    }
}
