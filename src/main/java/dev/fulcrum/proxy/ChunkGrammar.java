package dev.fulcrum.proxy;

import io.undertow.conduits.ChunkedStreamSourceConduit;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.protocol.http.HttpServerConnection;
import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import org.xnio.conduits.AbstractConduit;
import org.xnio.conduits.AbstractStreamSourceConduit;
import org.xnio.conduits.StreamSourceConduit;

/**
 * Holds a chunked request body to RFC 9112 7.1 as its bytes arrive, beneath Undertow's chunk decoder, which reads
 * leniently: it takes a chunk-size line ended by a bare LF, junk after the size ({@code 5 5}, {@code 5,5},
 * {@code 5\0}, {@code 5 }, {@code 5;}), a control byte in an extension, a chunk longer than its size (the extra bytes
 * skipped), and trailer lines that are no fields ({@code X-T : 1}, {@code X-T 1}, a request line: its own trailer
 * parser then cuts the connection without an answer), and would hand the backend a body the client never framed.
 * Here such a body stops at the broken byte, and the client gets 400 and a closed connection.
 *
 * <p>Leading zeros of a chunk size are no digits of it: {@code 0000000000000005} is a size of one digit.
 *
 * <p>The bytes pass through unchanged; only their grammar is followed. Runs on the exchange's I/O thread.
 */
final class ChunkGrammar {
    /** A chunked body that breaks the grammar: the client's fault, answered with 400. */
    static final class Malformed extends IOException {
        Malformed(String message) {
            super(message);
        }
    }

    private static final Field NEXT = nextField();

    /**
     * Where the grammar is. A chunk-size line is {@code 1*HEXDIG *( BWS ";" BWS name [ BWS "=" BWS value ] ) CRLF}
     * (RFC 9112 7.1.1), a trailer line {@code name ":" OWS value OWS CRLF} (RFC 9112 7.1.2, 5.1).
     */
    private enum State { SIZE_FIRST, SIZE, SIZE_BWS, EXT_NAME_START, EXT_NAME, EXT_AFTER_NAME, EXT_VALUE_START,
        EXT_TOKEN, EXT_AFTER_VALUE, EXT_QUOTED, EXT_ESCAPE, EXT_AFTER_QUOTED, SIZE_LF, DATA, DATA_CR, DATA_LF,
        TRAILER_START, TRAILER_NAME, TRAILER_VALUE, TRAILER_LF, FINAL_LF, DONE }

    private State state = State.SIZE_FIRST;
    private long size;
    private int digits;
    private long remaining;

    /**
     * Puts the grammar beneath the decoder Undertow set up for this HTTP/1.1 request's chunked body; nothing happens
     * for any other request (HTTP/2 frames its own bodies), or if Undertow's classes are not as expected.
     * {@code refused} is told (on the I/O thread, after the read) when the body breaks the grammar.
     */
    static void install(HttpServerExchange exchange, Consumer<Malformed> refused) {
        if (NEXT == null || !(exchange.getConnection() instanceof HttpServerConnection c)
                || !(c.getChannel().getSourceChannel().getConduit() instanceof ChunkedStreamSourceConduit decoder)) {
            return;
        }
        try {
            StreamSourceConduit raw = (StreamSourceConduit) NEXT.get(decoder);
            if (!(raw instanceof Checked)) {
                NEXT.set(decoder, new Checked(raw, c, exchange, refused));
            }
        } catch (IllegalAccessException | ClassCastException e) {
            // left lenient: the decoder still frames what it forwards
        }
    }

    private static Field nextField() {
        try {
            Field f = AbstractConduit.class.getDeclaredField("next");
            f.setAccessible(true);
            return f;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * The raw bytes of the connection as the decoder reads them, followed through the grammar on their way. A
     * broken body is not thrown at the decoder, which would close the connection with no answer: its reads find
     * nothing from then on, and {@code refused} answers.
     *
     * <p>The decoder gives back what it read beyond its need ({@code HttpServerConnection.ungetRequestBytes}), and
     * those bytes come up through here a second time: they were followed already. Whatever waits in the
     * connection's extra bytes beyond the body bytes that came with the head is such a replay and is skipped.
     */
    private static final class Checked extends AbstractStreamSourceConduit<StreamSourceConduit> {
        private final ChunkGrammar grammar = new ChunkGrammar();
        private final HttpServerConnection connection;
        private final HttpServerExchange exchange;
        private final Consumer<Malformed> refused;
        /** Body bytes that came with the head and have not been read yet: new to the grammar. */
        private long fresh;
        private boolean broken;

        Checked(StreamSourceConduit next, HttpServerConnection connection, HttpServerExchange exchange,
                Consumer<Malformed> refused) {
            super(next);
            this.connection = connection;
            this.exchange = exchange;
            this.refused = refused;
            this.fresh = waiting();
        }

        /** Bytes in the connection's extra buffer, which the next reads return before the socket's. */
        private long waiting() {
            var extra = connection.getExtraBytes();
            return extra == null ? 0 : extra.getBuffer().remaining();
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            return (int) read(new ByteBuffer[] {dst}, 0, 1);
        }

        @Override
        public long read(ByteBuffer[] dsts, int offs, int len) throws IOException {
            if (broken) {
                return 0;
            }
            long replay = Math.max(0, waiting() - fresh);
            int[] from = new int[len];
            for (int i = 0; i < len; i++) {
                from[i] = dsts[offs + i].position();
            }
            long n = next.read(dsts, offs, len);
            if (n > 0) {
                for (int i = 0; i < len; i++) {
                    int got = dsts[offs + i].position() - from[i];
                    long skip = Math.min(replay, got);
                    replay -= skip;
                    if (!followed(dsts[offs + i], from[i], from[i] + got, skip)) {
                        for (int j = 0; j < len; j++) {
                            dsts[offs + j].position(from[j]);
                        }
                        return 0;
                    }
                }
            }
            return n;
        }

        /** Follows {@code b[from, to)} but its first {@code replay} bytes, which the grammar has seen. */
        private boolean followed(ByteBuffer b, int from, int to, long replay) {
            int start = (int) Math.min(to, from + replay);
            fresh = Math.max(0, fresh - (to - start));
            try {
                grammar.follow(b, start, to);
                return true;
            } catch (Malformed m) {
                broken = true;
                exchange.getIoThread().execute(() -> refused.accept(m));
                return false;
            }
        }
    }

    /** Follows the bytes {@code b[from, to)} through the grammar. */
    void follow(ByteBuffer b, int from, int to) throws Malformed {
        for (int i = from; i < to; i++) {
            if (state == State.DATA) {
                long take = Math.min(remaining, to - i);
                remaining -= take;
                i += (int) take - 1;
                if (remaining == 0) {
                    state = State.DATA_CR;
                }
                continue;
            }
            if (state == State.DONE) {
                return; // the next request's bytes: Undertow pushes them back and parses them itself
            }
            step(b.get(i) & 0xff);
        }
    }

    private void step(int c) throws Malformed {
        switch (state) {
            case SIZE_FIRST, SIZE -> {
                int d = Character.digit(c, 16);
                if (d >= 0) {
                    // leading zeros are no digits of the size: 15 significant ones at most
                    if ((size != 0 || d != 0) && ++digits > 15) {
                        throw new Malformed("invalid chunked body: a chunk size of more than 15 hex digits");
                    }
                    size = size * 16 + d;
                    state = State.SIZE;
                } else if (state == State.SIZE_FIRST) {
                    throw bad("chunk size", c);
                } else if (c == ';') {
                    state = State.EXT_NAME_START;
                } else if (c == '\r') {
                    state = State.SIZE_LF;
                } else if (isBlank(c)) {
                    state = State.SIZE_BWS;
                } else {
                    throw bad("chunk size line", c);
                }
            }
            case SIZE_BWS -> {
                if (c == ';') {
                    state = State.EXT_NAME_START;
                } else if (!isBlank(c)) {
                    throw bad("chunk size line (whitespace after a size comes only before a chunk extension)", c);
                }
            }
            case EXT_NAME_START -> {
                if (Tokens.isTokenChar((byte) c)) {
                    state = State.EXT_NAME;
                } else if (!isBlank(c)) {
                    throw bad("chunk extension (a name must follow \";\")", c);
                }
            }
            case EXT_NAME -> extensionGoesOn(c, State.EXT_AFTER_NAME, true);
            case EXT_AFTER_NAME -> {
                if (c == '=') {
                    state = State.EXT_VALUE_START;
                } else if (c == ';') {
                    state = State.EXT_NAME_START;
                } else if (!isBlank(c)) {
                    throw bad("chunk extension", c);
                }
            }
            case EXT_VALUE_START -> {
                if (c == '"') {
                    state = State.EXT_QUOTED;
                } else if (Tokens.isTokenChar((byte) c)) {
                    state = State.EXT_TOKEN;
                } else if (!isBlank(c)) {
                    throw bad("chunk extension (a value must follow \"=\")", c);
                }
            }
            case EXT_TOKEN -> extensionGoesOn(c, State.EXT_AFTER_VALUE, false);
            case EXT_AFTER_VALUE -> {
                if (c == ';') {
                    state = State.EXT_NAME_START;
                } else if (!isBlank(c)) {
                    throw bad("chunk extension", c);
                }
            }
            case EXT_QUOTED -> {
                if (c == '"') {
                    state = State.EXT_AFTER_QUOTED;
                } else if (c == '\\') {
                    state = State.EXT_ESCAPE;
                } else if (c != '\t' && (c < 0x20 || c == 0x7f)) {
                    throw bad("chunk extension", c);
                }
            }
            case EXT_ESCAPE -> {
                if (c != '\t' && (c < 0x20 || c == 0x7f)) {
                    throw bad("chunk extension", c);
                }
                state = State.EXT_QUOTED;
            }
            case EXT_AFTER_QUOTED -> {
                if (c == ';') {
                    state = State.EXT_NAME_START;
                } else if (c == '\r') {
                    state = State.SIZE_LF;
                } else if (isBlank(c)) {
                    state = State.EXT_AFTER_VALUE;
                } else {
                    throw bad("chunk extension", c);
                }
            }
            case SIZE_LF -> {
                expect(c, '\n', "chunk size line");
                if (size == 0) {
                    state = State.TRAILER_START;
                } else {
                    remaining = size;
                    state = State.DATA;
                }
                size = 0;
                digits = 0;
            }
            case DATA_CR -> {
                expect(c, '\r', "end of chunk data (more bytes than the chunk size)");
                state = State.DATA_LF;
            }
            case DATA_LF -> {
                expect(c, '\n', "end of chunk data");
                state = State.SIZE_FIRST;
            }
            case TRAILER_START -> {
                if (c == '\r') {
                    state = State.FINAL_LF;
                } else if (isBlank(c)) {
                    throw new Malformed("invalid chunked body: a folded trailer field (obs-fold)");
                } else if (Tokens.isTokenChar((byte) c)) {
                    state = State.TRAILER_NAME;
                } else {
                    throw bad("trailer field", c);
                }
            }
            case TRAILER_NAME -> {
                if (c == ':') {
                    state = State.TRAILER_VALUE;
                } else if (!Tokens.isTokenChar((byte) c)) {
                    throw bad("trailer field's name (a name, then \":\" at once)", c);
                }
            }
            case TRAILER_VALUE -> {
                if (c == '\r') {
                    state = State.TRAILER_LF;
                } else if (c != '\t' && (c < 0x20 || c == 0x7f)) {
                    throw bad("trailer field", c);
                }
            }
            case TRAILER_LF -> {
                expect(c, '\n', "trailer field");
                state = State.TRAILER_START;
            }
            case FINAL_LF -> {
                expect(c, '\n', "end of the chunked body");
                state = State.DONE;
            }
            default -> throw new IllegalStateException(state.name());
        }
    }

    /**
     * Inside an extension's name ({@code name}) or token value: more of it, whitespace before what follows
     * ({@code blank}), {@code ;} for the next extension, {@code =} after a name, or the line's end.
     */
    private void extensionGoesOn(int c, State blank, boolean name) throws Malformed {
        if (Tokens.isTokenChar((byte) c)) {
            return;
        }
        if (c == ';') {
            state = State.EXT_NAME_START;
        } else if (c == '\r') {
            state = State.SIZE_LF;
        } else if (isBlank(c)) {
            state = blank;
        } else if (name && c == '=') {
            state = State.EXT_VALUE_START;
        } else {
            throw bad("chunk extension", c);
        }
    }

    private static boolean isBlank(int c) {
        return c == ' ' || c == '\t';
    }

    private static void expect(int c, int wanted, String where) throws Malformed {
        if (c != wanted) {
            throw bad(where, c);
        }
    }

    private static Malformed bad(String where, int c) {
        String shown = c == '\n' ? "a bare LF" : c == '\r' ? "a CR" : c < 0x20 || c >= 0x7f
                ? String.format("byte 0x%02x", c) : "'" + (char) c + "'";
        return new Malformed("invalid chunked body: " + shown + " in the " + where);
    }
}
