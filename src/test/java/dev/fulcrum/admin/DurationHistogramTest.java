package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The request duration histogram as Prometheus reads it: cumulative buckets, bounds inclusive, count and sum. */
class DurationHistogramTest {
    @Test
    void eachDurationCountsInItsBucketAndEveryLargerOne() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        DurationHistogram h = new DurationHistogram();
        registry.getPrometheusRegistry().register(h);
        h.record(TimeUnit.MICROSECONDS.toNanos(500));
        h.record(TimeUnit.MILLISECONDS.toNanos(1)); // a bound is inclusive: le="0.001"
        h.record(TimeUnit.MILLISECONDS.toNanos(3));
        h.record(TimeUnit.SECONDS.toNanos(40)); // above the largest bound: +Inf only
        h.record(-5); // a clock that stepped back counts as 0, not as a negative sum

        PrometheusText.Family f = PrometheusText.parse(registry.scrape()).get(DurationHistogram.NAME);
        assertThat(f.type()).isEqualTo("histogram");
        String bucket = DurationHistogram.NAME + "_bucket";
        assertThat(f.value(bucket, Map.of("le", "0.001"))).isEqualTo(3.0);
        assertThat(f.value(bucket, Map.of("le", "0.005"))).isEqualTo(4.0);
        assertThat(f.value(bucket, Map.of("le", "30.0"))).isEqualTo(4.0);
        assertThat(f.value(bucket, Map.of("le", "+Inf"))).isEqualTo(5.0);
        assertThat(f.value(DurationHistogram.NAME + "_count", Map.of())).isEqualTo(5.0);
        assertThat(f.value(DurationHistogram.NAME + "_sum", Map.of())).isCloseTo(40.0045, within(1e-9));
    }
}
