package dev.fulcrum.ui.connect;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EngineConnectorTest {
    @Test
    void attachingWithoutAnHttpClientInTheBuildSaysSoInsteadOfPretending() {
        assertThatThrownBy(() -> EngineConnector.attach("http://127.0.0.1:8081", null, "dev.fulcrum.admin.NoSuchClient"))
                .isInstanceOf(EngineConnector.UnavailableException.class)
                .hasMessageStartingWith("Remote attach is not available in this build");
    }

    @Test
    void aClientClassWithoutTheExpectedConstructorIsReportedToo() {
        assertThatThrownBy(() -> EngineConnector.attach("http://127.0.0.1:8081", null, String.class.getName()))
                .isInstanceOf(EngineConnector.UnavailableException.class)
                .hasMessageContaining("has no (URI, String) constructor");
    }
}
