package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The request checks that decide what may reach a backend's request line and which route a path takes. */
class BalancingHandlerTest {

    @Test
    void dotSegmentsAreFoundWhereverTheyStandButDotsInsideNamesAreNot() {
        for (String p : new String[] {"/..", "/.", "/a/..", "/a/.", "/a/../b", "/a/./b", "/../b", "..", "."}) {
            assertThat(BalancingHandler.hasDotSegment(p)).as(p).isTrue();
        }
        for (String p : new String[] {"/", "/a.b", "/a/.well-known/x", "/..a", "/a..", "/a/...", "/v1.2/x", "/.x/y"}) {
            assertThat(BalancingHandler.hasDotSegment(p)).as(p).isFalse();
        }
    }

    @Test
    void theBackendsRequestLineTakesOnlyVisibleAsciiWithoutAFragment() {
        assertThat(BalancingHandler.targetProblem("/a/b%20c", "x=1&y=%0d")).isNull();
        assertThat(BalancingHandler.targetProblem("/a b", null)).isEqualTo("request target: invalid character 0x20 (got: /a b)");
        assertThat(BalancingHandler.targetProblem("/a\r\nX: 1", null))
                .isEqualTo("request target: invalid character 0xd (got: /a\\x0d\\x0aX: 1)");
        assertThat(BalancingHandler.targetProblem("/a", "q#frag")).isEqualTo("request target: invalid character 0x23 (got: /a?q#frag)");
        assertThat(BalancingHandler.targetProblem("/caf\u00e9", null)).startsWith("request target: invalid character 0xe9");
    }
}
