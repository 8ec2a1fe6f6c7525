package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ChunkGrammar} held to the letter of RFC 9112 7.1 (issue 24): a chunk-size line is {@code 1*HEXDIG} then
 * extensions {@code BWS ";" BWS name [BWS "=" BWS value]}, a trailer line {@code name ":" value}; leading zeros are
 * no digits of a size. Every body in every split, as reads would bring it.
 */
class ChunkGrammarStrictTest {
    private static void follow(String body, int piece) throws ChunkGrammar.Malformed {
        ChunkGrammar g = new ChunkGrammar();
        ByteBuffer b = ByteBuffer.wrap(body.getBytes(StandardCharsets.ISO_8859_1));
        for (int from = 0; from < b.limit(); from += piece) {
            g.follow(b, from, Math.min(b.limit(), from + piece));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "5;a\r\nhello\r\n0\r\n\r\n",
        "5 \t;a\r\nhello\r\n0\r\n\r\n",
        "5; a = b ;c\r\nhello\r\n0\r\n\r\n",
        "5;a=\"b;c\" ; d=e\r\nhello\r\n0\r\n\r\n",
        "0000000000000000000000005\r\nhello\r\n0000;end\r\n\r\n",
        "5\r\nhello\r\n0\r\nX-T:1\r\nX-U: \u00e9 \t\r\nX-V:\r\n\r\n",
    })
    void theGrammarsOwnFormsPass(String body) {
        for (int piece = 1; piece <= body.length(); piece++) {
            int p = piece;
            assertThatCode(() -> follow(body, p)).as("in pieces of %d", p).doesNotThrowAnyException();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "5 \r\nhello\r\n0\r\n\r\n",
        "5\t\r\nhello\r\n0\r\n\r\n",
        "5;\r\nhello\r\n0\r\n\r\n",
        "5; \r\nhello\r\n0\r\n\r\n",
        "5;a=\r\nhello\r\n0\r\n\r\n",
        "5;=b\r\nhello\r\n0\r\n\r\n",
        "5;a b\r\nhello\r\n0\r\n\r\n",
        "5;a \r\nhello\r\n0\r\n\r\n",
        "5;a=b \r\nhello\r\n0\r\n\r\n",
        "5;a=\"b\"c\r\nhello\r\n0\r\n\r\n",
        "5;a=b=c\r\nhello\r\n0\r\n\r\n",
        "1000000000000000\r\nhello\r\n0\r\n\r\n",
        "5\r\nhello\r\n0\r\nX-T : 1\r\n\r\n",
        "5\r\nhello\r\n0\r\nX-T 1\r\n\r\n",
        "5\r\nhello\r\n0\r\nGET /x HTTP/1.1\r\n\r\n",
        "5\r\nhello\r\n0\r\nX-T\r\n\r\n",
        "5\r\nhello\r\n0\r\nX\u00e9: 1\r\n\r\n",
        "5\r\nhello\r\n0\r\nX-T: a\u0000b\r\n\r\n",
    })
    void formsOutsideTheGrammarAreRefused(String body) {
        for (int piece = 1; piece <= body.length(); piece++) {
            int p = piece;
            assertThatThrownBy(() -> follow(body, p)).as("in pieces of %d", p).isInstanceOf(ChunkGrammar.Malformed.class);
        }
    }
}
