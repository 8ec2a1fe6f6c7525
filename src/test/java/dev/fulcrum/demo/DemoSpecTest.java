package dev.fulcrum.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DemoSpecTest {
    @Test
    void acceptsTheContractExample() {
        DemoSpec s = new DemoSpec("demo-a", 9101, 1, 5, 0.0);
        assertThat(s.id()).isEqualTo("demo-a");
    }

    @Test
    void rejectsEachBadFieldNamingItAndTheValue() {
        assertThatThrownBy(() -> new DemoSpec("bad id", 0, 1, 0, 0))
                .hasMessage("id: must be 1-64 characters of A-Z a-z 0-9 . _ - (got: bad id)");
        assertThatThrownBy(() -> new DemoSpec("", 0, 1, 0, 0)).hasMessageStartingWith("id: ");
        assertThatThrownBy(() -> new DemoSpec("a".repeat(65), 0, 1, 0, 0)).hasMessageStartingWith("id: ");
        assertThatThrownBy(() -> new DemoSpec("a", 70000, 1, 0, 0))
                .hasMessage("port: must be between 0 and 65535 (got: 70000)");
        assertThatThrownBy(() -> new DemoSpec("a", 0, -3, 0, 0))
                .hasMessage("weight: must be between 0 and 1000 (got: -3)");
        assertThatThrownBy(() -> new DemoSpec("a", 0, 1, 60_001, 0))
                .hasMessage("latencyMs: must be between 0 and 60000 (got: 60001)");
        assertThatThrownBy(() -> new DemoSpec("a", 0, 1, 0, -0.25))
                .hasMessage("errorRate: must be between 0 and 1 (got: -0.25)");
    }
}
