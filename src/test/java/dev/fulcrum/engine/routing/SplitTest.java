package dev.fulcrum.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.fulcrum.engine.strategy.RandomSource;
import dev.fulcrum.engine.strategy.SimpleRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A weighted split as nginx's split_clients: exact cases (the same key, the sticky key's forms), seeded
 * distributions over 10,000 keys with a stated tolerance, and the edges (no key, every weight 0).
 */
@DisplayName("Split")
class SplitTest {
    static final int KEYS = 10_000;
    static final StickyKey BY_USER = new StickyKey(StickyKey.Kind.COOKIE, "uid");
    /** A random source a test must not touch: a keyed request or an all-zero split draws nothing. */
    static final RandomSource NO_DRAW = new RandomSource() {
        @Override
        public int nextInt(int bound) {
            throw new AssertionError("drew a random number");
        }

        @Override
        public long nextLong(long bound) {
            throw new AssertionError("drew a random number");
        }

        @Override
        public double nextDouble() {
            throw new AssertionError("drew a random number");
        }
    };

    static Split split(StickyKey key, int... weights) {
        List<Split.Arm> arms = new ArrayList<>();
        String[] names = {"stable", "canary", "third"};
        for (int i = 0; i < weights.length; i++) {
            arms.add(new Split.Arm(weights.length == 2 || i < 2 ? names[i] : names[2], weights[i]));
        }
        return new Split(arms, key);
    }

    static SimpleRequest user(int i) {
        return new SimpleRequest("10.0.0." + (i % 250), "GET", "/", Map.of(), Map.of("uid", "user-" + i), Map.of());
    }

    static SimpleRequest anonymous() {
        return new SimpleRequest("10.0.0.1", "GET", "/", Map.of(), Map.of(), Map.of());
    }

    /** The arm of each of the 10,000 users. */
    static int[] arms(Split s) {
        int[] out = new int[KEYS];
        for (int i = 0; i < KEYS; i++) {
            out[i] = s.arm(user(i), NO_DRAW);
        }
        return out;
    }

    static double share(int[] arms, int arm) {
        int n = 0;
        for (int a : arms) {
            n += a == arm ? 1 : 0;
        }
        return (double) n / arms.length;
    }

    // ------------------------------------------------------------------ exact cases

    @Test
    void theSameKeyLandsInTheSameArmOnEveryRequestAndEveryInstance() {
        Split one = split(BY_USER, 50, 50);
        Split another = split(BY_USER, 50, 50); // a second Fulcrum with the same config
        for (int i = 0; i < 1000; i++) {
            int arm = one.arm(user(i), NO_DRAW);
            assertThat(one.arm(user(i), NO_DRAW)).isEqualTo(arm);
            assertThat(another.arm(user(i), NO_DRAW)).isEqualTo(arm);
        }
    }

    @Test
    void aKeyFallsOnTheLineWhereItsHashSaysAndTheArmsOwnConsecutiveBuckets() {
        // bucket(key, total) is the high 32 bits of XxHash64(key) scaled to [0, total): each key's point, once
        for (int i = 0; i < 200; i++) {
            String key = "user-" + i;
            long point = Split.bucket(key, 100);
            assertThat(point).isBetween(0L, 99L);
            int expected = point < 95 ? 0 : 1;
            assertThat(split(BY_USER, 95, 5).arm(user(i), NO_DRAW)).as(key + " at point " + point).isEqualTo(expected);
            int three = point < 50 ? 0 : point < 80 ? 1 : 2;
            assertThat(split(BY_USER, 50, 30, 20).arm(user(i), NO_DRAW)).isEqualTo(three);
        }
    }

    @Test
    void theStickyKeyIsReadFromTheCookieTheHeaderOrTheAddress() {
        SimpleRequest r = new SimpleRequest("192.0.2.7", "GET", "/", Map.of("X-User", "h-1"), Map.of("uid", "c-1"),
                Map.of());
        assertThat(StickyKey.parse("cookie:uid").of(r)).isEqualTo("c-1");
        assertThat(StickyKey.parse("header:x-user").of(r)).as("a header's name without regard to case")
                .isEqualTo("h-1");
        assertThat(StickyKey.parse("ip").of(r)).isEqualTo("192.0.2.7");
        assertThat(StickyKey.parse("none").of(r)).isNull();
        assertThat(StickyKey.parse(null)).isSameAs(StickyKey.NONE);
        assertThat(StickyKey.parse("cookie:other").of(r)).as("a cookie the request lacks").isNull();
    }

    @Test
    void aStickyKeyIsWrittenBackAsItWasRead() {
        for (String text : List.of("cookie:uid", "header:X-User", "ip", "none")) {
            assertThat(StickyKey.parse(text)).hasToString(text);
        }
    }

    @Test
    void aStickyKeyThatIsNoneOfTheFormsIsRefusedWithTheRule() {
        assertThatThrownBy(() -> StickyKey.parse("session:uid")).hasMessage("must be cookie:NAME, header:NAME, ip or none");
        assertThatThrownBy(() -> StickyKey.parse("IP")).hasMessage("must be cookie:NAME, header:NAME, ip or none");
        assertThatThrownBy(() -> StickyKey.parse("cookie")).hasMessage("needs a cookie name after \"cookie:\"");
        assertThatThrownBy(() -> StickyKey.parse("header:")).hasMessage("needs a header name after \"header:\"");
        assertThatThrownBy(() -> StickyKey.parse("cookie:a b")).hasMessage("needs a cookie name after \"cookie:\"");
    }

    @Test
    void withWeightsAllToDescribeAndShare() {
        Split s = split(BY_USER, 95, 5);
        assertThat(s.describe()).isEqualTo("stable=95 canary=5");
        assertThat(s.withWeights(List.of(90, 10)).describe()).isEqualTo("stable=90 canary=10");
        assertThat(s.withWeights(List.of(90, 10)).stickyBy()).isEqualTo(BY_USER);
        assertThat(s.allTo(1).describe()).as("promote").isEqualTo("stable=0 canary=100");
        assertThat(s.allTo(0).describe()).as("roll back").isEqualTo("stable=100 canary=0");
        assertThat(s.share(1)).isEqualTo(0.05);
        assertThat(s.indexOf("canary")).isEqualTo(1);
        assertThat(s.indexOf("shadow")).isEqualTo(-1);
        assertThatThrownBy(() -> s.withWeights(List.of(1, 2, 3))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("expected 2 weights (got: 3)");
        assertThatThrownBy(() -> new Split(List.of(), null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new Split(List.of(new Split.Arm("a", 1)), null).stickyBy()).isSameAs(StickyKey.NONE);
    }

    // ------------------------------------------------------------------ seeded distributions

    @Test
    void sharesOverTenThousandKeysFollowTheWeightsWithinOnePoint() {
        // binomial sd at 10,000 keys is at most 0.5 point; 1 point is 2 sd at 50/50 and 4.6 sd at 95/5
        int[] a = arms(split(BY_USER, 95, 5));
        assertThat(share(a, 1)).isCloseTo(0.05, within(0.01));
        int[] b = arms(split(BY_USER, 50, 50));
        assertThat(share(b, 0)).isCloseTo(0.50, within(0.01));
        int[] c = arms(split(BY_USER, 1, 3));
        assertThat(share(c, 1)).isCloseTo(0.75, within(0.01));
    }

    @Test
    void aThreeArmSplitGivesEachArmItsShare() {
        int[] a = arms(split(BY_USER, 50, 30, 20));
        assertThat(share(a, 0)).isCloseTo(0.50, within(0.015));
        assertThat(share(a, 1)).isCloseTo(0.30, within(0.015));
        assertThat(share(a, 2)).isCloseTo(0.20, within(0.015));
    }

    @Test
    void raisingTheCanaryOnlyEverMovesUsersIntoItNeverBack() {
        // stable stays at 95 while the canary goes 5 -> 10 -> 50 -> 100: its share grows, and every user it had stays
        int[] before = arms(split(BY_USER, 95, 5));
        for (int canary : new int[] {10, 50, 100}) {
            int[] after = arms(split(BY_USER, 95, canary));
            int moved = 0;
            for (int i = 0; i < KEYS; i++) {
                if (before[i] == 1) {
                    assertThat(after[i]).as("user-%d was in the canary before canary=%d", i, canary).isEqualTo(1);
                } else if (after[i] == 1) {
                    moved++;
                }
            }
            assertThat(moved).as("users moved stable -> canary at canary=%d", canary).isPositive();
            assertThat(share(after, 1)).isCloseTo(canary / (95.0 + canary), within(0.015));
            before = after;
        }
    }

    @Test
    void movingWeightFromStableToTheCanaryMovesOnlyThatShare() {
        // the slider's way: the total stays 100; 95/5 -> 90/10 -> 50/50 -> 0/100
        int[] before = arms(split(BY_USER, 95, 5));
        for (int canary : new int[] {10, 50, 100}) {
            int[] after = arms(split(BY_USER, 100 - canary, canary));
            int moved = 0;
            for (int i = 0; i < KEYS; i++) {
                assertThat(after[i]).as("user-%d never goes back to stable", i).isGreaterThanOrEqualTo(before[i]);
                moved += after[i] != before[i] ? 1 : 0;
            }
            assertThat((double) moved / KEYS).as("the share that moved at canary=%d", canary)
                    .isCloseTo(share(after, 1) - share(before, 1), within(1e-9));
            before = after;
        }
        assertThat(share(before, 1)).isEqualTo(1.0);
    }

    @Test
    void inAThreeArmSplitGrowingTheLastArmMovesUsersOnlyTowardIt() {
        // the others keep their weights, so the total grows and every boundary moves toward the start: a user may
        // pass from the first arm to the second as well, but never toward an earlier arm
        int[] before = arms(split(BY_USER, 50, 45, 5));
        for (int last : new int[] {10, 50, 100}) {
            int[] after = arms(split(BY_USER, 50, 45, last));
            for (int i = 0; i < KEYS; i++) {
                assertThat(after[i]).as("user-%d at last=%d", i, last).isGreaterThanOrEqualTo(before[i]);
                if (before[i] == 2) {
                    assertThat(after[i]).isEqualTo(2);
                }
            }
            before = after;
        }
        // taking the last arm's weight from the arm before it, as the slider does, moves only that arm's users
        int[] was = arms(split(BY_USER, 50, 45, 5));
        int[] now = arms(split(BY_USER, 50, 40, 10));
        for (int i = 0; i < KEYS; i++) {
            if (was[i] != now[i]) {
                assertThat(was[i]).isEqualTo(1);
                assertThat(now[i]).isEqualTo(2);
            }
        }
    }

    @Test
    void aRequestWithoutItsKeyDrawsItsArmAtRandom() {
        RandomSource random = RandomSource.seeded(7);
        Split byCookie = split(BY_USER, 95, 5);
        int canary = 0;
        for (int i = 0; i < KEYS; i++) {
            canary += byCookie.arm(anonymous(), random);
        }
        assertThat(canary / (double) KEYS).as("seeded draws, within 1 point").isCloseTo(0.05, within(0.01));

        Split unkeyed = split(StickyKey.NONE, 95, 5);
        int canaryUnkeyed = 0;
        for (int i = 0; i < KEYS; i++) {
            canaryUnkeyed += unkeyed.arm(user(i), random);
        }
        assertThat(canaryUnkeyed / (double) KEYS).as("stickyBy none: every request draws").isCloseTo(0.05, within(0.01));
    }

    @Test
    void aDrawTakesThePointTheRandomSourceGives() {
        Split s = split(StickyKey.NONE, 95, 5);
        assertThat(s.arm(anonymous(), fixed(0))).isZero();
        assertThat(s.arm(anonymous(), fixed(94))).isZero();
        assertThat(s.arm(anonymous(), fixed(95))).isEqualTo(1);
        assertThat(s.arm(anonymous(), fixed(99))).isEqualTo(1);
    }

    // ------------------------------------------------------------------ edges

    @Test
    void withEveryWeightZeroTheFirstArmTakesEverythingWithoutADraw() {
        Split s = split(BY_USER, 0, 0);
        assertThat(s.arm(user(1), NO_DRAW)).isZero();
        assertThat(s.arm(anonymous(), NO_DRAW)).isZero();
        assertThat(s.share(0)).isEqualTo(1.0);
        assertThat(s.share(1)).isEqualTo(0.0);
    }

    @Test
    void anArmAtZeroTakesNoUserAndOneArmAtAllTakesEveryUser() {
        int[] a = arms(split(BY_USER, 100, 0));
        assertThat(share(a, 0)).isEqualTo(1.0);
        int[] b = arms(split(BY_USER, 0, 100));
        assertThat(share(b, 1)).isEqualTo(1.0);
        int[] c = arms(split(BY_USER, 1000, 1));
        assertThat(share(c, 1)).as("1 of 1001").isLessThan(0.005);
    }

    static RandomSource fixed(int value) {
        return new RandomSource() {
            @Override
            public int nextInt(int bound) {
                assertThat(value).isLessThan(bound);
                return value;
            }

            @Override
            public long nextLong(long bound) {
                return value;
            }

            @Override
            public double nextDouble() {
                return value / 100.0;
            }
        };
    }
}
