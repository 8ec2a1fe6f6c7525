package dev.fulcrum.engine.hash;

/**
 * The one fixed 64-bit hash of the engine: xxHash64 (Yann Collet's XXH64) of a string's UTF-8 bytes, written
 * here so that every Fulcrum instance, and any other tool with an XXH64 implementation, computes the same
 * value for the same key. {@code hash("abc") == 0x44BC2CF5AD770999L}, the reference library's answer.
 *
 * <p>Why a streaming encoder: a pick hashes the request's key on every request, and
 * {@code key.getBytes(UTF_8)} would allocate an array each time. Instead the chars are encoded to UTF-8 on
 * the fly and fed a byte at a time into a 64-bit lane; each full lane goes into the 32-byte stripe that
 * XXH64 consumes. Lone surrogates encode as {@code '?'}, as {@link String#getBytes} does, so the result
 * always equals XXH64 of {@code key.getBytes(UTF_8)}.
 */
public final class XxHash64 {
    private static final long P1 = 0x9E3779B185EBCA87L;
    private static final long P2 = 0xC2B2AE3D27D4EB4FL;
    private static final long P3 = 0x165667B19E3779F9L;
    private static final long P4 = 0x85EBCA77C2B2AE63L;
    private static final long P5 = 0x27D4EB2F165667C5L;

    private XxHash64() {
    }

    public static long hash(CharSequence s) {
        return hash(s, 0L);
    }

    public static long hash(CharSequence s, long seed) {
        long v1 = seed + P1 + P2;
        long v2 = seed + P2;
        long v3 = seed;
        long v4 = seed - P1;
        long l0 = 0;
        long l1 = 0;
        long l2 = 0;
        int lanes = 0; // full lanes buffered in the current stripe (0..3)
        long acc = 0; // bytes of the current lane, little-endian
        int accBytes = 0;
        long total = 0; // bytes fed so far
        int n = s.length();
        for (int i = 0; i < n; i++) {
            if (accBytes == 0 && i + 8 <= n) {
                // fast path: eight ASCII chars are one whole lane (IPs, paths and ids almost always are)
                long c0 = s.charAt(i);
                long c1 = s.charAt(i + 1);
                long c2 = s.charAt(i + 2);
                long c3 = s.charAt(i + 3);
                long c4 = s.charAt(i + 4);
                long c5 = s.charAt(i + 5);
                long c6 = s.charAt(i + 6);
                long c7 = s.charAt(i + 7);
                if ((c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7) < 0x80) {
                    long lane = c0 | c1 << 8 | c2 << 16 | c3 << 24 | c4 << 32 | c5 << 40 | c6 << 48 | c7 << 56;
                    total += 8;
                    switch (lanes) {
                        case 0 -> l0 = lane;
                        case 1 -> l1 = lane;
                        case 2 -> l2 = lane;
                        default -> {
                            v1 = round(v1, l0);
                            v2 = round(v2, l1);
                            v3 = round(v3, l2);
                            v4 = round(v4, lane);
                        }
                    }
                    lanes = (lanes + 1) & 3;
                    i += 7;
                    continue;
                }
            }
            int cp = s.charAt(i);
            int count;
            long bytes; // the UTF-8 bytes of this char, first byte lowest
            if (cp < 0x80) {
                bytes = cp;
                count = 1;
            } else if (cp < 0x800) {
                bytes = (0xC0 | (cp >>> 6)) | (long) (0x80 | (cp & 0x3F)) << 8;
                count = 2;
            } else if (Character.isSurrogate((char) cp)) {
                if (Character.isHighSurrogate((char) cp) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    cp = Character.toCodePoint((char) cp, s.charAt(++i));
                    bytes = (0xF0 | (cp >>> 18)) | (long) (0x80 | ((cp >>> 12) & 0x3F)) << 8
                            | (long) (0x80 | ((cp >>> 6) & 0x3F)) << 16 | (long) (0x80 | (cp & 0x3F)) << 24;
                    count = 4;
                } else {
                    bytes = '?';
                    count = 1;
                }
            } else {
                bytes = (0xE0 | (cp >>> 12)) | (long) (0x80 | ((cp >>> 6) & 0x3F)) << 8
                        | (long) (0x80 | (cp & 0x3F)) << 16;
                count = 3;
            }
            for (int k = 0; k < count; k++) {
                acc |= (bytes & 0xFF) << (accBytes << 3);
                bytes >>>= 8;
                total++;
                if (++accBytes == 8) {
                    switch (lanes) {
                        case 0 -> l0 = acc;
                        case 1 -> l1 = acc;
                        case 2 -> l2 = acc;
                        default -> {
                            v1 = round(v1, l0);
                            v2 = round(v2, l1);
                            v3 = round(v3, l2);
                            v4 = round(v4, acc);
                        }
                    }
                    lanes = (lanes + 1) & 3;
                    acc = 0;
                    accBytes = 0;
                }
            }
        }
        long h;
        if (total >= 32) {
            h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
            h = merge(h, v1);
            h = merge(h, v2);
            h = merge(h, v3);
            h = merge(h, v4);
        } else {
            h = seed + P5;
        }
        h += total;
        if (lanes > 0) {
            h = lane(h, l0);
        }
        if (lanes > 1) {
            h = lane(h, l1);
        }
        if (lanes > 2) {
            h = lane(h, l2);
        }
        if (accBytes >= 4) {
            h ^= (acc & 0xFFFFFFFFL) * P1;
            h = Long.rotateLeft(h, 23) * P2 + P3;
            acc >>>= 32;
            accBytes -= 4;
        }
        while (accBytes-- > 0) {
            h ^= (acc & 0xFF) * P5;
            h = Long.rotateLeft(h, 11) * P1;
            acc >>>= 8;
        }
        return avalanche(h);
    }

    /** A cheap bijective 64-bit mixer (XXH64's avalanche) to derive a fresh hash from an old one. */
    public static long mix(long h) {
        return avalanche(h * P1 + P4);
    }

    /** {@code hash} reduced to [0, m) treating it as unsigned. */
    public static int mod(long hash, int m) {
        return (int) Long.remainderUnsigned(hash, m);
    }

    private static long round(long acc, long input) {
        acc += input * P2;
        acc = Long.rotateLeft(acc, 31);
        return acc * P1;
    }

    private static long merge(long h, long v) {
        h ^= round(0, v);
        return h * P1 + P4;
    }

    private static long lane(long h, long l) {
        h ^= round(0, l);
        return Long.rotateLeft(h, 27) * P1 + P4;
    }

    private static long avalanche(long h) {
        h ^= h >>> 33;
        h *= P2;
        h ^= h >>> 29;
        h *= P3;
        h ^= h >>> 32;
        return h;
    }
}
