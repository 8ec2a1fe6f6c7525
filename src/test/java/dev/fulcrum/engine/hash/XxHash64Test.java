package dev.fulcrum.engine.hash;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class XxHash64Test {

    // expected values computed with the reference C library (libxxhash 0.8.1, XXH64)
    @Test
    void matchesTheReferenceLibraryOnKnownVectors() {
        assertThat(XxHash64.hash("")).isEqualTo(0xef46db3751d8e999L);
        assertThat(XxHash64.hash("a")).isEqualTo(0xd24ec4f1a98c6e5bL);
        assertThat(XxHash64.hash("abc")).isEqualTo(0x44bc2cf5ad770999L);
        assertThat(XxHash64.hash("10.0.0.1")).isEqualTo(0xed16cb68c786e3d7L);
        assertThat(XxHash64.hash("backend-a#0")).isEqualTo(0xc196ff16a53d13b6L);
        assertThat(XxHash64.hash("The quick brown fox jumps over the lazy dog")).isEqualTo(0x0b242d361fda71bcL);
        assertThat(XxHash64.hash("héllo wörld ✓ 𝄞 and more text beyond 32 bytes")).isEqualTo(0x9f698353b87eb529L);
        assertThat(XxHash64.hash("abc", 1234567)).isEqualTo(0xcb54395bbf895909L);
    }

    @Test
    void hashingCharsEqualsHashingTheirUtf8BytesForEveryLengthAndMixOfScripts() {
        SplittableRandom r = new SplittableRandom(7);
        char[] alphabet = "ab09-./:é߿ࠀ✓\uD834\uDD1E\uD800\uDC00\uDFFF\uD800".toCharArray();
        for (int len = 0; len < 100; len++) {
            for (int rep = 0; rep < 20; rep++) {
                char[] cs = new char[len];
                int asciiPercent = rep % 2 == 0 ? 50 : 95; // 95%: long ASCII runs take the eight-char fast path
                for (int i = 0; i < len; i++) {
                    cs[i] = r.nextInt(100) < asciiPercent ? (char) (32 + r.nextInt(95))
                            : alphabet[r.nextInt(alphabet.length)];
                }
                String s = new String(cs);
                long seed = r.nextLong();
                assertThat(XxHash64.hash(s, seed)).as("%s", s)
                        .isEqualTo(reference(s.getBytes(StandardCharsets.UTF_8), seed));
            }
        }
    }

    @Test
    void modIsTheUnsignedRemainder() {
        assertThat(XxHash64.mod(-1L, 7)).isEqualTo((int) Long.remainderUnsigned(-1L, 7)).isBetween(0, 6);
        assertThat(XxHash64.mod(13, 7)).isEqualTo(6);
    }

    @Test
    void mixGivesADifferentHashEachTime() {
        long h = XxHash64.hash("10.0.0.1");
        assertThat(XxHash64.mix(h)).isNotEqualTo(h).isNotEqualTo(XxHash64.mix(XxHash64.mix(h)));
    }

    /** A straightforward byte[] XXH64 (spec order, no streaming) to check the streaming one against. */
    private static long reference(byte[] b, long seed) {
        final long p1 = 0x9E3779B185EBCA87L;
        final long p2 = 0xC2B2AE3D27D4EB4FL;
        final long p3 = 0x165667B19E3779F9L;
        final long p4 = 0x85EBCA77C2B2AE63L;
        final long p5 = 0x27D4EB2F165667C5L;
        ByteBuffer buf = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int len = b.length;
        int i = 0;
        long h;
        if (len >= 32) {
            long v1 = seed + p1 + p2;
            long v2 = seed + p2;
            long v3 = seed;
            long v4 = seed - p1;
            for (; i + 32 <= len; i += 32) {
                v1 = Long.rotateLeft(v1 + buf.getLong(i) * p2, 31) * p1;
                v2 = Long.rotateLeft(v2 + buf.getLong(i + 8) * p2, 31) * p1;
                v3 = Long.rotateLeft(v3 + buf.getLong(i + 16) * p2, 31) * p1;
                v4 = Long.rotateLeft(v4 + buf.getLong(i + 24) * p2, 31) * p1;
            }
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            for (long v : new long[] {v1, v2, v3, v4}) {
                h ^= Long.rotateLeft(v * p2, 31) * p1;
                h = h * p1 + p4;
            }
        } else {
            h = seed + p5;
        }
        h += len;
        for (; i + 8 <= len; i += 8) {
            h ^= Long.rotateLeft(buf.getLong(i) * p2, 31) * p1;
            h = Long.rotateLeft(h, 27) * p1 + p4;
        }
        if (i + 4 <= len) {
            h ^= (buf.getInt(i) & 0xFFFFFFFFL) * p1;
            h = Long.rotateLeft(h, 23) * p2 + p3;
            i += 4;
        }
        for (; i < len; i++) {
            h ^= (b[i] & 0xFF) * p5;
            h = Long.rotateLeft(h, 11) * p1;
        }
        h ^= h >>> 33;
        h *= p2;
        h ^= h >>> 29;
        h *= p3;
        h ^= h >>> 32;
        return h;
    }
}
