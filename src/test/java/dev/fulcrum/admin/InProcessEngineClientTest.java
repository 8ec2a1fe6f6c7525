package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.testkit.RunningFulcrum;
import org.junit.jupiter.api.Test;

class InProcessEngineClientTest extends EngineClientContract {
    @Override
    EngineClient connect(RunningFulcrum f) {
        return new InProcessEngineClient(f.app());
    }

    @Test
    void describesItselfAsTheEmbeddedEngine() {
        assertThat(client.describe()).isEqualTo("embedded engine, proxy " + fulcrum.url());
    }
}
