package dev.fulcrum.ui.backends;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The Add dialog's labels field, {@code zone=b, cost=0.2}: read into labels, and refused in the config's words. */
class BackendFormLabelsTest {
    @Test
    void nameValuePairsSeparatedByCommasAreTheLabels() {
        assertThat(BackendForm.labelProblems(" zone = b , cost=0.2, ")).isEmpty();
        assertThat(BackendForm.labels(" zone = b , cost=0.2, ")).containsExactly(Map.entry("cost", "0.2"),
                Map.entry("zone", "b"));
        assertThat(BackendForm.labels("")).isEmpty();
        assertThat(BackendForm.labels(null)).isEmpty();
        assertThat(BackendForm.labelProblems("   ")).isEmpty();
        assertThat(BackendForm.labels("url=http://h:1/a=b")).containsExactly(Map.entry("url", "http://h:1/a=b"));
    }

    @Test
    void eachWrongLabelIsNamedAsTheConfigNamesIt() {
        assertThat(BackendForm.labelProblems("Zone=b, cost=" + "v".repeat(65) + ", tier")).containsExactlyInAnyOrder(
                "labels: write name=value, separated by commas (got: tier)",
                "labels.Zone: must match [a-z][a-z0-9_]{0,31} (got: Zone)",
                "labels.cost: must be a string of at most 64 characters (got: " + "v".repeat(65) + ")");
        assertThat(BackendForm.labelProblems("zone=a, zone=b"))
                .containsExactly("labels.zone: given twice (got: zone)");
        StringBuilder seventeen = new StringBuilder();
        for (int i = 0; i < 17; i++) {
            seventeen.append("l").append(i).append("=v,");
        }
        assertThat(BackendForm.labelProblems(seventeen.toString())).containsExactly("labels: at most 16 labels (got: 17)");
    }

    @Test
    void theFormsProblemsIncludeTheLabels() {
        assertThat(BackendForm.problems("api-3", "http://127.0.0.1:9003", "5", "zone=b", Set.of())).isEmpty();
        assertThat(BackendForm.problems("api-3", "http://127.0.0.1:9003", "5", "Zone=b", Set.of()))
                .containsExactly("labels.Zone: must match [a-z][a-z0-9_]{0,31} (got: Zone)");
    }
}
