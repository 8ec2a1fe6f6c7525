package dev.fulcrum.admin.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.admin.Json;
import dev.fulcrum.engine.EngineException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fleet window's commands as edits of the shared config: demo backends are the config's as backends are. */
class ConfigEditsTest {
    static final String CONFIG = """
            {"backends": [{"id": "a", "url": "http://127.0.0.1:9001"}],
             "demoBackends": [{"id": "demo-a", "port": 0, "weight": 3}],
             "pools": {"api": {"demoBackends": [{"id": "demo-b", "port": 0}]}}}
            """;

    static JsonNode tree() throws Exception {
        return Json.MAPPER.readTree(CONFIG);
    }

    @Test
    void aDemoBackendsWeightIsEditedInItsEntryInAnyPool() throws Exception {
        JsonNode next = ConfigEdits.setWeight(tree(), "demo-a", 7, null);
        assertThat(next.at("/demoBackends/0/weight").asInt()).isEqualTo(7);
        assertThat(next.at("/demoBackends/0/port").asInt()).isZero();
        next = ConfigEdits.setWeight(next, "demo-b", 2, null);
        assertThat(next.at("/pools/api/demoBackends/0/weight").asInt()).isEqualTo(2);
        assertThat(next.at("/backends/0").toString()).isEqualTo(tree().at("/backends/0").toString());
    }

    @Test
    void aDemoBackendIsRemovedFromItsListAndItsIdCannotBeAddedTwice() throws Exception {
        JsonNode next = ConfigEdits.remove(tree(), "demo-a", null);
        assertThat(next.get("demoBackends")).isEmpty();
        assertThat(next.get("backends")).hasSize(1);
        assertThatThrownBy(() -> ConfigEdits.add(tree(), null, "demo-b", "http://127.0.0.1:9002", 1, null, false,
                Map.of())).isInstanceOf(EngineException.class).hasMessageContaining("demo-b exists already");
    }

    @Test
    void aBackendInNoEntryIsRefusedWithTheCallersReason() {
        assertThatThrownBy(() -> ConfigEdits.setWeight(tree(), "found-by-dns", 2, "backend: from discovery"))
                .isInstanceOf(EngineException.class).hasMessage("backend: from discovery");
    }
}
