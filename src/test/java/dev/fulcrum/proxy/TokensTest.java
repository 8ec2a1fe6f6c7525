package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TokensTest {
    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void wellKnownNamesAreFoundWhateverTheirCaseAndOthersAreNot() {
        byte[] b = bytes("xxcontent-TYPE");
        assertThat(Tokens.name(Tokens.known(b, 2, 12))).isSameAs(Headers.CONTENT_TYPE);
        assertThat(Tokens.known(bytes("Content-Typo"), 0, 12)).isEqualTo(-1);
        assertThat(Tokens.known(bytes("X-Custom"), 0, 8)).isEqualTo(-1);
        assertThat(Tokens.known(bytes("Content\rType"), 0, 12)).as("a CR is not a hyphen").isEqualTo(-1);
    }

    @Test
    void aRepeatedValueIsTheSameStringAndAChangedOneIsNew() {
        Tokens.Values values = new Tokens.Values();
        int server = Tokens.known(bytes("Server"), 0, 6);
        byte[] a = bytes("nginx/1.22.1");
        String first = values.value(server, a, 0, a.length);
        assertThat(values.value(server, bytes("nginx/1.22.1"), 0, 12)).isSameAs(first);
        assertThat(values.value(server, bytes("nginx/1.22.2"), 0, 12)).isEqualTo("nginx/1.22.2");
        byte[] latin = {'c', 'a', 'f', (byte) 0xE9};
        assertThat(values.value(server, latin, 0, 4)).isEqualTo("caf\u00e9");
        assertThat(values.value(server, latin, 0, 4)).isEqualTo("caf\u00e9");
        assertThat(values.value(server, bytes("cafe"), 0, 4)).isEqualTo("cafe");
    }

    @Test
    void contentLengthIsOneDecimalNumberHoweverOftenItIsStated() {
        assertThat(Tokens.contentLength(values("5"))).isEqualTo(5);
        assertThat(Tokens.contentLength(values(" 5 ", "5, 5", "05"))).isEqualTo(5);
        assertThat(Tokens.contentLength(values("999999999999999999"))).isEqualTo(999_999_999_999_999_999L);
        for (String[] bad : new String[][] {{"5", "6"}, {"5, 6"}, {""}, {"5,"}, {"+5"}, {"-1"}, {"0x5"}, {"5 5"},
                {"9999999999999999999"}}) {
            assertThat(Tokens.contentLength(values(bad))).as(String.join("|", bad)).isEqualTo(-1);
        }
    }

    private static io.undertow.util.HeaderValues values(String... v) {
        io.undertow.util.HeaderMap h = new io.undertow.util.HeaderMap();
        for (String s : v) {
            h.add(io.undertow.util.Headers.CONTENT_LENGTH, s);
        }
        return h.get(io.undertow.util.Headers.CONTENT_LENGTH);
    }
}
