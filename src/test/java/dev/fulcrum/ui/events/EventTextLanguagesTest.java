package dev.fulcrum.ui.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.i18n.Texts;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Events table's words in Chinese and Polish: status words and the engine's change words, its values kept. */
class EventTextLanguagesTest {
    @AfterEach
    void english() {
        Texts.use(Locale.ENGLISH);
    }

    @Test
    void inChineseABreakerADrainAndADemoFaultReadInChinese() {
        Texts.use(Locale.SIMPLIFIED_CHINESE);
        EngineEvent breaker = new EngineEvent("breaker", "default", "a", "CLOSED", "OPEN", 0);
        assertThat(EventText.from(breaker)).isEqualTo("闭合");
        assertThat(EventText.to(breaker)).isEqualTo("断开");
        assertThat(EventText.to(new EngineEvent("drain", "default", "a", "UP", "DRAINING", 0))).isEqualTo("排空中");
        assertThat(EventText.to(new EngineEvent("health", "default", "a", "UP", "UNKNOWN", 0))).isEqualTo("未知");
        EngineEvent demo = new EngineEvent("demo", null, "demo-a", null, "{\"latencyMs\":200,\"down\":true}", 0);
        assertThat(EventText.from(demo)).isEqualTo("故障设置已更改");
        assertThat(EventText.to(demo)).isEqualTo("延迟 200 ms，宕机");
        assertThat(EventsController.typeWord("breaker")).isEqualTo("熔断器");
    }

    @Test
    void inPolishAMembershipAConfigAndAGuardReadInPolishWithTheEnginesReasonKept() {
        Texts.use(Locale.forLanguageTag("pl"));
        assertThat(EventText.to(new EngineEvent("membership", "default", "a", null, "added", 0))).isEqualTo("dodany");
        assertThat(EventText.to(new EngineEvent("config", null, null, null, "rejected: $.pools: empty", 0)))
                .isEqualTo("odrzucono: $.pools: empty");
        EngineEvent guard = new EngineEvent("guard", "canary", null, "stable=90 canary=10",
                "canary errors 12.0% vs baseline 0.5%", 0, 1);
        assertThat(EventText.from(guard)).isEqualTo("trasa 1: stable 90%, canary 10%");
        assertThat(EventText.to(guard)).isEqualTo("wycofano: canary errors 12.0% vs baseline 0.5%");
        assertThat(EventsController.typeWord("a-type-it-does-not-know")).isEqualTo("a-type-it-does-not-know");
    }
}
