package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.fleet.EtcdFleetClient;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.i18n.Texts;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * A change the fleet refused because its config changed under the view (a weight dragged on a stale view) is said in
 * the window's language around the client's own words, which stay as they are; another 409 is shown as it comes.
 */
class FleetChangedTextTest {
    private static final EngineException CHANGED = new EngineException(409, EtcdFleetClient.CHANGED);

    @Test
    void theStaleViewsRefusalReadsInEachLanguageWithTheClientsWords() {
        try (UiSession session = new UiSession(null, "Fulcrum fleet etcd://127.0.0.1:2379/shop")) {
            assertThat(session.inWords(CHANGED)).isEqualTo("changed by someone else; reloaded");
            Texts.use(Locale.SIMPLIFIED_CHINESE);
            assertThat(session.inWords(CHANGED)).isEqualTo("配置已被他人修改，已重新加载（changed by someone else; reloaded）");
            Texts.use(Locale.forLanguageTag("pl"));
            assertThat(session.inWords(CHANGED))
                    .isEqualTo("Ktoś inny zmienił konfigurację; wczytano ją ponownie (changed by someone else; reloaded)");
            assertThat(session.inWords(new EngineException(409, "id: backend a exists already (got: a)")))
                    .isEqualTo("id: backend a exists already (got: a)");
        } finally {
            Texts.use(Locale.ENGLISH);
        }
    }
}
