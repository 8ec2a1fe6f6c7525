package dev.fulcrum.ui.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.EngineEvent;
import org.junit.jupiter.api.Test;

/** The Events table's From and To: words, never raw JSON or an empty cell. */
class EventTextTest {
    @Test
    void aDemoFaultChangeReadsInWords() {
        EngineEvent e = new EngineEvent("demo", null, "demo-a", null, "{\"latencyMs\":200.0,\"errorRate\":0.1,\"down\":true}", 0);
        assertThat(EventText.from(e)).isEqualTo("faults changed");
        assertThat(EventText.to(e)).isEqualTo("latency 200 ms, errors 10%, down");
        assertThat(EventText.to(new EngineEvent("demo", null, "demo-a", null, "{\"down\":false}", 0))).isEqualTo("up");
    }

    @Test
    void aMissingValueIsADashAndAStrategyItsName() {
        EngineEvent config = new EngineEvent("config", null, null, null, "applied", 0);
        assertThat(EventText.from(config)).isEqualTo(EventText.NONE);
        assertThat(EventText.to(config)).isEqualTo("applied");
        EngineEvent strategy = new EngineEvent("strategy", "default", null, "round-robin", "consistent-hash", 0);
        assertThat(EventText.from(strategy)).isEqualTo("round robin");
        assertThat(EventText.to(strategy)).isEqualTo("consistent hashing");
        EngineEvent weight = new EngineEvent("weight", "default", "a", "1", "5", 0);
        assertThat(EventText.from(weight)).isEqualTo("1");
        assertThat(EventText.to(weight)).isEqualTo("5");
    }

    @Test
    void aSplitAndAGuardReadAsSharesAndTheReason() {
        EngineEvent split = new EngineEvent("split", "canary", null, "stable=95 canary=5", "stable=100 canary=0", 0, 0);
        assertThat(EventText.from(split)).isEqualTo("route 0: stable 95%, canary 5%");
        assertThat(EventText.to(split)).isEqualTo("stable 100%, canary 0%");
        assertThat(EventText.split("a=3 b=1")).isEqualTo("a 3, b 1 (75%, 25%)");
        assertThat(EventText.split("not weights")).isEqualTo("not weights");
        EngineEvent guard = new EngineEvent("guard", "canary", null, "stable=90 canary=10",
                "canary errors 12.0% vs baseline 0.5%", 0, 1);
        assertThat(EventText.from(guard)).isEqualTo("route 1: stable 90%, canary 10%");
        assertThat(EventText.to(guard)).isEqualTo("rolled back: canary errors 12.0% vs baseline 0.5%");
    }
}
