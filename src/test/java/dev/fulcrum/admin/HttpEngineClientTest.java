package dev.fulcrum.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import org.junit.jupiter.api.Test;

class HttpEngineClientTest extends EngineClientContract {
    @Override
    EngineClient connect(RunningFulcrum f) {
        return new HttpEngineClient(URI.create(f.admin), null);
    }

    @Test
    void describesItselfAsTheRemoteEngineAtItsAdminUrl() {
        assertThat(client.describe()).isEqualTo("remote engine at " + fulcrum.admin);
    }
}
