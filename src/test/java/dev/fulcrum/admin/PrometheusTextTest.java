package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** The test parser must refuse what Prometheus refuses, or the metrics test proves nothing. */
class PrometheusTextTest {
    @Test
    void readsFamiliesLabelsEscapesAndSpecialValues() {
        Map<String, PrometheusText.Family> m = PrometheusText.parse("""
                # HELP up_total Things.
                # TYPE up_total counter
                up_total{a="x\\"y\\\\z\\n",b="2"} 3.5
                # TYPE g gauge
                g NaN
                # TYPE h histogram
                h_bucket{le="0.1"} 1
                h_bucket{le="+Inf"} 2
                h_count 2
                h_sum 0.3
                """);
        assertThat(m.get("up_total").value("up_total", Map.of("a", "x\"y\\z\n", "b", "2"))).isEqualTo(3.5);
        assertThat(m.get("g").value("g", Map.of())).isNaN();
        assertThat(m.get("h").value("h_count", Map.of())).isEqualTo(2.0);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "# TYPE a counter\na{x=\"1\"} 1",                      // no final line feed
            "a 1\n",                                                 // no TYPE
            "# TYPE a counter\na{x=1} 1\n",                          // unquoted label value
            "# TYPE a counter\na{x=\"\\t\"} 1\n",                    // bad escape
            "# TYPE a counter\na{1x=\"1\"} 1\n",                     // bad label name
            "# TYPE a counter\na{x=\"1\"} one\n",                    // bad value
            "# TYPE a counter\na 1\na 2\n",                          // duplicate series
            "# TYPE a counter\n# TYPE a gauge\n",                    // typed twice
            "# TYPE a-b counter\n",                                  // bad metric name
            "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_count 1\n", // not cumulative
            "# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_count 1\n", // no +Inf
    })
    void refusesMalformedExpositions(String text) {
        assertThatThrownBy(() -> PrometheusText.parse(text)).isInstanceOf(IllegalArgumentException.class);
    }
}
