package dev.fulcrum.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

/**
 * Contract review findings on config validation (docs/REFERENCE.md §1 and §2.1): what the running product refuses must be
 * refused by validation, with a json path, so --check-config and PUT /api/config agree with startup.
 */
class DemoLatencyRangeTest {

    /**
     * A demo backend's latencyMs above 60000 passes validation (--check-config prints "ok"), but DemoSpec refuses it,
     * so --headless exits 1 with "fulcrum: cannot start: latencyMs: must be between 0 and 60000 (got: 70000)" and
     * PUT /api/config answers 500. It should be a config error like every other range.
     */
    @Test
    void demoLatencyAboveWhatTheDemoBackendAcceptsIsAConfigError() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("""
                { "demoBackends": [ { "id": "d1", "port": 0, "latencyMs": 70000 } ] }
                """));
        assertThat(e).as("latencyMs 70000 must be refused by validation, not at start").isNotNull();
        assertThat(e.lines()).containsExactly(
                "config error: demoBackends[0].latencyMs: must be between 0 and 60000 (got: 70000)");
    }
}
