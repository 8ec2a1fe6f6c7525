package dev.fulcrum.admin;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code fulcrum_request_duration_seconds}: a Prometheus histogram with fixed buckets, recorded on the I/O threads with
 * one striped add for the bucket and two for the count and the sum. Not Micrometer's Timer: it keeps a time-windowed
 * maximum and a time-windowed bucket array besides, two clock reads and a shared {@code AtomicLongArray} slot that both
 * I/O threads would bump for nearly every request (the same fast bucket).
 *
 * <p>Buckets, count and sum are read at a scrape while requests go on, so a scrape may see a request in one and not yet
 * in another; the next scrape sees it everywhere (Prometheus's own client reads its histograms the same way).
 */
final class DurationHistogram implements Collector {
    static final String NAME = "fulcrum_request_duration_seconds";
    /** Upper bounds in milliseconds: a fast local hop up to a slow upstream. */
    private static final long[] BOUNDS_MS = {1, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000};
    private static final long[] BOUNDS_NANOS = new long[BOUNDS_MS.length];
    private static final double[] BOUNDS_SECONDS = new double[BOUNDS_MS.length + 1];

    static {
        for (int i = 0; i < BOUNDS_MS.length; i++) {
            BOUNDS_NANOS[i] = TimeUnit.MILLISECONDS.toNanos(BOUNDS_MS[i]);
            BOUNDS_SECONDS[i] = BOUNDS_MS[i] / 1000.0;
        }
        BOUNDS_SECONDS[BOUNDS_MS.length] = Double.POSITIVE_INFINITY;
    }

    /** One per bucket, the last for everything above the largest bound; not cumulative. */
    private final LongAdder[] buckets = new LongAdder[BOUNDS_MS.length + 1];
    private final LongAdder count = new LongAdder();
    private final LongAdder sumNanos = new LongAdder();

    DurationHistogram() {
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new LongAdder();
        }
    }

    void record(long nanos) {
        long n = Math.max(0, nanos);
        int i = 0;
        while (i < BOUNDS_NANOS.length && n > BOUNDS_NANOS[i]) {
            i++;
        }
        buckets[i].increment();
        count.increment();
        sumNanos.add(n);
    }

    @Override
    public MetricSnapshot collect() {
        long[] counts = new long[buckets.length];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = buckets[i].sum();
        }
        return HistogramSnapshot.builder()
                .name(NAME)
                .help("Time to answer a proxied request")
                .dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                        .classicHistogramBuckets(ClassicHistogramBuckets.of(BOUNDS_SECONDS, counts))
                        .sum(sumNanos.sum() / 1e9)
                        .build())
                .build();
    }

    @Override
    public String getPrometheusName() {
        return NAME;
    }
}
