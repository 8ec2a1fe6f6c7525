package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.i18n.Texts;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The toolbar's name of the engine is said in the window's language; the client's own stays English. */
class EngineDescriptionTest {
    @AfterEach
    void english() {
        Texts.use(Locale.ENGLISH);
    }

    @Test
    void eachKindOfEngineIsNamedInTheWindowsLanguage() {
        assertThat(UiSession.inLanguage("embedded engine, proxy http://127.0.0.1:8080"))
                .isEqualTo("embedded engine, proxy http://127.0.0.1:8080");
        Texts.use(Locale.SIMPLIFIED_CHINESE);
        assertThat(UiSession.inLanguage("embedded engine, proxy http://127.0.0.1:8080"))
                .isEqualTo("内嵌引擎，代理 http://127.0.0.1:8080");
        Texts.use(Locale.forLanguageTag("pl"));
        assertThat(UiSession.inLanguage("remote engine at http://10.0.0.5:8081"))
                .isEqualTo("zdalny silnik pod adresem http://10.0.0.5:8081");
        assertThat(UiSession.inLanguage("HAProxy fleet: a, b (HAProxy 2.6.12)"))
                .isEqualTo("flota HAProxy: a, b (HAProxy 2.6.12)");
        assertThat(UiSession.inLanguage("something else")).isEqualTo("something else");
    }
}
