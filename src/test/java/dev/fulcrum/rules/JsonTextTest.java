package dev.fulcrum.rules;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JsonTextTest {
    @Test
    void escapesQuotesBackslashesAndControlCharactersAndLeavesTheRest() {
        assertThat(JsonText.quote("plain é")).isEqualTo("\"plain é\"");
        assertThat(JsonText.quote("a\"b\\c\nd\re\tf\u0001g\u001f"))
                .isEqualTo("\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001f\"");
    }

    @Test
    void appendsTheInsideOnly() {
        StringBuilder b = new StringBuilder("x=");
        JsonText.appendEscaped(b, "say \"hi\"");
        assertThat(b).hasToString("x=say \\\"hi\\\"");
    }
}
