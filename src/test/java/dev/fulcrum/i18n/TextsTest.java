package dev.fulcrum.i18n;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TextsTest {
    @AfterEach
    void english() {
        Texts.use(Locale.ENGLISH);
    }

    @Test
    void englishUntilTheWindowPicksAndTheClosestSupportedLanguageThen() {
        assertThat(Texts.locale()).isEqualTo(Locale.ENGLISH);
        assertThat(Texts.supported(Locale.forLanguageTag("zh-CN"))).isEqualTo(Locale.SIMPLIFIED_CHINESE);
        assertThat(Texts.supported(Locale.forLanguageTag("zh-TW"))).isEqualTo(Locale.SIMPLIFIED_CHINESE);
        assertThat(Texts.supported(Locale.forLanguageTag("pl-PL")).getLanguage()).isEqualTo("pl");
        assertThat(Texts.supported(Locale.GERMANY)).isEqualTo(Locale.ENGLISH);
    }

    @Test
    void eachLanguageReadsItsOwnBundleWithoutFallingBackToTheSystemOne() {
        Locale before = Locale.getDefault();
        Locale.setDefault(Locale.forLanguageTag("pl-PL"));
        try {
            Texts.use(Locale.ENGLISH);
            assertThat(Texts.t("main.tab.breakers")).isEqualTo("Breakers");
            Texts.use(Locale.SIMPLIFIED_CHINESE);
            assertThat(Texts.t("main.tab.breakers")).isEqualTo("熔断器");
            assertThat(Texts.language()).isEqualTo("zh");
            Texts.use(Locale.forLanguageTag("pl"));
            assertThat(Texts.t("main.tab.breakers")).isEqualTo("Wyłączniki");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void aMissingKeyReadsAsItselfAndArgumentsAreFilledIn() {
        assertThat(Texts.t("no.such.key")).isEqualTo("no.such.key");
        assertThat(Texts.nativeName(Locale.SIMPLIFIED_CHINESE)).isEqualTo("简体中文");
    }

    @Test
    void aStatusWordIsTranslatedButAnUnknownOneShowsAsItIs() {
        Texts.use(Locale.SIMPLIFIED_CHINESE);
        assertThat(Texts.word("breaker", "HALF_OPEN")).isEqualTo("半开");
        assertThat(Texts.word("state", "LIMBO")).isEqualTo("LIMBO");
    }

    @Test
    void aLocalTextFallsBackToEnglishAndNeedsIt() {
        LocalText t = new LocalText(Map.of("en", "Drain it", "pl", "Opróżnij go"));
        assertThat(t.in("pl")).isEqualTo("Opróżnij go");
        assertThat(t.in("zh")).isEqualTo("Drain it");
        assertThatThrownBy(() -> new LocalText(Map.of("pl", "x"))).hasMessageContaining("en");
    }
}
