package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChunkGrammarTest {
    /** Follows {@code body} through a fresh grammar in pieces of {@code piece} bytes, as reads would bring it. */
    private static void follow(String body, int piece) throws ChunkGrammar.Malformed {
        ChunkGrammar g = new ChunkGrammar();
        ByteBuffer b = ByteBuffer.wrap(body.getBytes(StandardCharsets.ISO_8859_1));
        for (int from = 0; from < b.limit(); from += piece) {
            g.follow(b, from, Math.min(b.limit(), from + piece));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "5\r\nhello\r\n0\r\n\r\n",
        "5;name=value\r\nhello\r\n0\r\n\r\n",
        "5 ;name=\"quoted \\\" value\"\r\nhello\r\n0\r\n\r\n",
        "A\r\n0123456789\r\n3\r\nabc\r\n0\r\nX-Trailer: yes\r\nY: \t2\r\n\r\n",
        "000\r\n\r\n",
        "5\r\nhello\r\n0\r\n\r\nGET /next HTTP/1.1\r\n\r\n", // a pipelined request after the body is not the body's
        // RFC 9112 7.1 to the letter: BWS around extensions, leading zeros no digits of a size, trailer fields
        "5;a\r\nhello\r\n0\r\n\r\n",
        "5 \t;a\r\nhello\r\n0\r\n\r\n",
        "5; a = b ;c\r\nhello\r\n0\r\n\r\n",
        "5;a=\"b;c\" ; d=e\r\nhello\r\n0\r\n\r\n",
        "0000000000000000000000005\r\nhello\r\n0000;end\r\n\r\n",
        "5\r\nhello\r\n0\r\nX-T:1\r\nX-U: \u00e9 \t\r\nX-V:\r\n\r\n",
    })
    void wellFramedBodiesPassInAnyPieces(String body) {
        for (int piece = 1; piece <= body.length(); piece++) {
            int p = piece;
            assertThatCode(() -> follow(body, p)).as("in pieces of %d", p).doesNotThrowAnyException();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "4\r\nhello\r\n0\r\n\r\n", // more data than the size: Undertow's decoder skips "o\r\n"
        "5\nhello\r\n0\r\n\r\n", // bare LF after the size
        "5 5\r\nhello\r\n0\r\n\r\n",
        "5,5\r\nhello\r\n0\r\n\r\n",
        "5\u0000\r\nhello\r\n0\r\n\r\n",
        "5\r\r\nhello\r\n0\r\n\r\n",
        "5;\u0001x\r\nhello\r\n0\r\n\r\n", // control byte in an extension
        "zz\r\nhello\r\n0\r\n\r\n",
        "\r\nhello\r\n0\r\n\r\n", // no size at all
        "FFFFFFFFFFFFFFFFFFFF\r\nhello\r\n0\r\n\r\n",
        "5\r\nhello\n0\r\n\r\n", // bare LF after the data
        "5\r\nhello\r\n0\r\n folded: trailer\r\n\r\n",
        "5\r\nhello\r\n0\r\n: no name\r\n\r\n",
        "5\r\nhello\r\n0\r\n\n",
        // outside the grammar: whitespace after a size but no extension, an extension without a name or value,
        // 16 significant digits, trailer lines that are no fields
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
    void malformedBodiesAreRefusedInAnyPieces(String body) {
        for (int piece = 1; piece <= body.length(); piece++) {
            int p = piece;
            assertThatThrownBy(() -> follow(body, p)).as("in pieces of %d", p).isInstanceOf(ChunkGrammar.Malformed.class);
        }
    }

    @Test
    void theProblemIsNamed() {
        assertThatThrownBy(() -> follow("5\nhello\r\n0\r\n\r\n", 100))
                .hasMessage("invalid chunked body: a bare LF in the chunk size line");
    }
}
