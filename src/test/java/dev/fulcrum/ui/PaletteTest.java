package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import javafx.scene.paint.Color;
import org.junit.jupiter.api.Test;

class PaletteTest {
    @Test
    void aBackendKeepsItsColourWhenOthersAreRemovedOrAddedAndEveryViewGetsTheSame() {
        Map<String, Color> eight = Palette.of(List.of("pal-node-1", "pal-node-2", "pal-node-3", "pal-node-4",
                "pal-node-5", "pal-node-6", "pal-node-7", "pal-node-8"));

        Map<String, Color> afterRemoval = Palette.of(List.of("pal-node-1", "pal-node-2", "pal-node-3", "pal-node-5",
                "pal-node-6", "pal-node-7", "pal-node-8"));
        Map<String, Color> afterAdding = Palette.of(List.of("pal-node-0", "pal-node-8"));

        for (String id : afterRemoval.keySet()) {
            assertThat(afterRemoval.get(id)).as(id).isEqualTo(eight.get(id));
        }
        assertThat(afterAdding.get("pal-node-8")).isEqualTo(eight.get("pal-node-8"));
        assertThat(Palette.of("pal-node-5")).isEqualTo(eight.get("pal-node-5"));
        assertThat(afterAdding.get("pal-node-0")).as("a newcomer takes a colour nobody had")
                .isNotIn(eight.values());
        assertThat(eight.values()).as("eight backends, eight colours").doesNotHaveDuplicates();
    }
}
