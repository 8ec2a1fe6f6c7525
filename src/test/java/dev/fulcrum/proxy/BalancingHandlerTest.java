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

    @Test
    void slashRunsAreMergedBeforeRouting() {
        assertThat(dev.fulcrum.engine.Router.mergeSlashes("/api/x")).isEqualTo("/api/x");
        assertThat(dev.fulcrum.engine.Router.mergeSlashes("//api///x//")).isEqualTo("/api/x/");
        assertThat(dev.fulcrum.engine.Router.mergeSlashes("/")).isEqualTo("/");
    }

    @Test
    void theStrippedPrefixIsFoundInTheRawTargetAsTheRouterMatchedIt() {
        assertThat(BalancingHandler.stripPrefix("/api/v2/users", "/api/v2")).isEqualTo("/users");
        assertThat(BalancingHandler.stripPrefix("/api/v2", "/api/v2")).isEqualTo("/");
        assertThat(BalancingHandler.stripPrefix("/%73/x", "/s")).isEqualTo("/x");
        assertThat(BalancingHandler.stripPrefix("/%61pi/%76%32/a%20b", "/api/v2")).isEqualTo("/a%20b");
        assertThat(BalancingHandler.stripPrefix("//api//x", "/api")).isEqualTo("//x");
        assertThat(BalancingHandler.stripPrefix("/api//x", "/api/")).isEqualTo("/x");
        assertThat(BalancingHandler.stripPrefix("/caf%C3%A9/x", "/caf\u00e9")).isEqualTo("/x");
        assertThat(BalancingHandler.stripPrefix("/x", "/")).isEqualTo("/x");
        // an encoded slash is not a slash (Undertow leaves it encoded, so the router saw "%2F")
        assertThat(BalancingHandler.stripPrefix("/a%2Fb/x", "/a%2Fb")).isEqualTo("/x");
    }

    @Test
    void theFirstCookieOfANameIsTheOneRead() {
        io.undertow.util.HeaderMap h = new io.undertow.util.HeaderMap();
        assertThat(StickyCookies.first(h, "S")).isNull();
        h.add(io.undertow.util.Headers.COOKIE, "a=1;S=first; S=second");
        h.add(io.undertow.util.Headers.COOKIE, "S=third");
        assertThat(StickyCookies.first(h, "S")).isEqualTo("first");
        assertThat(StickyCookies.first(h, "a")).isEqualTo("1");
        assertThat(StickyCookies.first(h, "b")).isNull();
        h.put(io.undertow.util.Headers.COOKIE, "XS=no; S = no;  S=\"q\" ");
        assertThat(StickyCookies.first(h, "S")).isEqualTo("q");
        h.put(io.undertow.util.Headers.COOKIE, "S=; S=x");
        assertThat(StickyCookies.first(h, "S")).isEmpty();
    }
}
