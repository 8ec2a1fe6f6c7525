package dev.fulcrum.engine.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fulcrum.engine.strategy.SimpleRequest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.PatternSyntaxException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** What a route matches on: each matcher exactly, then the route's conditions together over a request. */
@DisplayName("Route match")
class RouteMatchTest {
    static SimpleRequest request(String method, String path, Map<String, String> headers, Map<String, String> cookies,
                                 Map<String, String> query) {
        return new SimpleRequest("10.0.0.1", method, path, headers, cookies, query);
    }

    static SimpleRequest withHeaders(Map<String, String> headers) {
        return request("GET", "/", headers, Map.of(), Map.of());
    }

    static RouteMatch headers(RouteMatch.Named... named) {
        return new RouteMatch(null, null, Set.of(), List.of(named), List.of(), List.of());
    }

    // ------------------------------------------------------------------ ValueMatcher, exact cases

    @Test
    void exactMatchesTheWholeValueAndCaseCounts() {
        ValueMatcher m = ValueMatcher.exact("1");
        assertThat(m.test("1")).isTrue();
        assertThat(m.test("11")).isFalse();
        assertThat(m.test("")).isFalse();
        assertThat(m.test(null)).as("absent").isFalse();
        assertThat(ValueMatcher.exact("Beta").test("beta")).isFalse();
    }

    @Test
    void prefixMatchesTheStartOfTheValue() {
        ValueMatcher m = ValueMatcher.prefix("stag");
        assertThat(m.test("stag")).isTrue();
        assertThat(m.test("staging")).isTrue();
        assertThat(m.test("prestaging")).isFalse();
        assertThat(m.test("sta")).isFalse();
        assertThat(m.test(null)).isFalse();
        assertThat(ValueMatcher.prefix("").test("")).as("an empty prefix: any value present").isTrue();
        assertThat(ValueMatcher.prefix("").test(null)).isFalse();
    }

    @Test
    void aRegexIsFoundAnywhereUnlessItIsAnchored() {
        assertThat(ValueMatcher.regex("stag").test("prestaging")).as("found inside").isTrue();
        assertThat(ValueMatcher.regex("^stag").test("prestaging")).as("anchored at the start").isFalse();
        assertThat(ValueMatcher.regex("^stag").test("staging")).isTrue();
        assertThat(ValueMatcher.regex("^v[0-9]+$").test("v12")).isTrue();
        assertThat(ValueMatcher.regex("^v[0-9]+$").test("v12b")).as("anchored at the end").isFalse();
        assertThat(ValueMatcher.regex(".*").test(null)).as("an absent value matches no regex").isFalse();
    }

    @Test
    void presentAndAbsentLookOnlyAtWhetherThereIsAValue() {
        assertThat(ValueMatcher.present().test("")).as("an empty value is present").isTrue();
        assertThat(ValueMatcher.present().test("x")).isTrue();
        assertThat(ValueMatcher.present().test(null)).isFalse();
        assertThat(ValueMatcher.absent().test(null)).isTrue();
        assertThat(ValueMatcher.absent().test("")).isFalse();
    }

    @Test
    void ignoringCaseAppliesToExactPrefixAndRegexAndLeavesPresenceAlone() {
        assertThat(ValueMatcher.exact("Example.com").ignoringCase().test("EXAMPLE.COM")).isTrue();
        assertThat(ValueMatcher.prefix("api.").ignoringCase().test("API.example.com")).isTrue();
        assertThat(ValueMatcher.regex("^api\\.").ignoringCase().test("API.example.com")).isTrue();
        assertThat(ValueMatcher.present().ignoringCase()).isEqualTo(ValueMatcher.present());
        assertThat(ValueMatcher.exact("a").ignoringCase()).isNotEqualTo(ValueMatcher.exact("a"));
    }

    @Test
    void aRegexThatDoesNotCompileIsRefusedWhenMade() {
        assertThatThrownBy(() -> ValueMatcher.regex("(unclosed")).isInstanceOf(PatternSyntaxException.class);
    }

    @Test
    void equalConditionsAreEqual() {
        assertThat(ValueMatcher.regex("^a")).isEqualTo(ValueMatcher.regex("^a"))
                .hasSameHashCodeAs(ValueMatcher.regex("^a"));
        assertThat(ValueMatcher.exact("a")).isNotEqualTo(ValueMatcher.prefix("a"));
        assertThat(ValueMatcher.present()).isNotEqualTo(ValueMatcher.absent());
    }

    // ------------------------------------------------------------------ RouteMatch over a request

    @Test
    void theClassExampleAHeaderOnAPathPrefix() {
        RouteMatch m = new RouteMatch("/api", null, Set.of(),
                List.of(new RouteMatch.Named("X-Canary", ValueMatcher.exact("1"))), List.of(), List.of());

        assertThat(m.matches(request("GET", "/api/cart", Map.of("X-Canary", "1"), Map.of(), Map.of()), "/api/cart"))
                .isTrue();
        assertThat(m.matches(request("GET", "/api/cart", Map.of(), Map.of(), Map.of()), "/api/cart")).isFalse();
        assertThat(m.matches(request("GET", "/apix", Map.of("X-Canary", "1"), Map.of(), Map.of()), "/apix"))
                .isFalse();
        assertThat(m.prefixOnly()).isFalse();
    }

    @Test
    void headerNamesAreComparedWithoutRegardToCase() {
        RouteMatch m = headers(new RouteMatch.Named("x-canary", ValueMatcher.exact("1")));

        assertThat(m.matches(withHeaders(Map.of("X-CANARY", "1")), "/")).isTrue();
        assertThat(m.matches(withHeaders(Map.of("X-Canary", "1")), "/")).isTrue();
        assertThat(m.matches(withHeaders(Map.of("X-Canary", "0")), "/")).as("the value's case is its own").isFalse();
    }

    @Test
    void everyConditionMustHold() {
        RouteMatch m = headers(new RouteMatch.Named("X-Env", ValueMatcher.regex("^stag")),
                new RouteMatch.Named("X-Debug", ValueMatcher.present()),
                new RouteMatch.Named("X-Block", ValueMatcher.absent()));

        assertThat(m.matches(withHeaders(Map.of("X-Env", "staging", "X-Debug", "")), "/")).isTrue();
        assertThat(m.matches(withHeaders(Map.of("X-Env", "staging")), "/")).as("X-Debug missing").isFalse();
        assertThat(m.matches(withHeaders(Map.of("X-Env", "prod", "X-Debug", "1")), "/")).isFalse();
        assertThat(m.matches(withHeaders(Map.of("X-Env", "staging", "X-Debug", "1", "X-Block", "1")), "/"))
                .as("X-Block must be absent").isFalse();
    }

    @Test
    void cookiesAndQueryParametersAreMatchedByName() {
        RouteMatch m = new RouteMatch(null, null, Set.of(), List.of(),
                List.of(new RouteMatch.Named("tier", ValueMatcher.exact("vip"))),
                List.of(new RouteMatch.Named("batch", ValueMatcher.prefix("nightly"))));

        assertThat(m.matches(request("GET", "/", Map.of(), Map.of("tier", "vip"), Map.of("batch", "nightly-7")), "/"))
                .isTrue();
        assertThat(m.matches(request("GET", "/", Map.of(), Map.of("tier", "vip"), Map.of()), "/")).isFalse();
        assertThat(m.matches(request("GET", "/", Map.of(), Map.of("Tier", "vip"), Map.of("batch", "nightly")), "/"))
                .as("a cookie's name is exact").isFalse();
    }

    @Test
    void theMethodIsOneOfAList() {
        RouteMatch m = new RouteMatch(null, null, Set.of("GET", "HEAD"), List.of(), List.of(), List.of());

        assertThat(m.matches(request("GET", "/", Map.of(), Map.of(), Map.of()), "/")).isTrue();
        assertThat(m.matches(request("HEAD", "/", Map.of(), Map.of(), Map.of()), "/")).isTrue();
        assertThat(m.matches(request("POST", "/", Map.of(), Map.of(), Map.of()), "/")).isFalse();
        assertThat(RouteMatch.prefix("/").matches(request("DELETE", "/", Map.of(), Map.of(), Map.of()), "/"))
                .as("no method list: any method").isTrue();
    }

    @Test
    void theHostIsMatchedWithoutItsPortAndWithoutRegardToCase() {
        RouteMatch m = new RouteMatch(null, ValueMatcher.exact("api.example.com").ignoringCase(), Set.of(),
                List.of(), List.of(), List.of());

        assertThat(m.matches(withHeaders(Map.of("Host", "api.example.com")), "/")).isTrue();
        assertThat(m.matches(withHeaders(Map.of("Host", "API.Example.com:8443")), "/")).isTrue();
        assertThat(m.matches(withHeaders(Map.of("Host", "www.example.com")), "/")).isFalse();
        assertThat(m.matches(withHeaders(Map.of()), "/")).as("no Host header").isFalse();
    }

    @Test
    void anIpv6HostKeepsItsBracketsAndLosesItsPort() {
        assertThat(RouteMatch.hostName("[::1]:8080")).isEqualTo("[::1]");
        assertThat(RouteMatch.hostName("[::1]")).isEqualTo("[::1]");
        assertThat(RouteMatch.hostName("[2001:db8::7]:443")).isEqualTo("[2001:db8::7]");
        assertThat(RouteMatch.hostName("example.com:80")).isEqualTo("example.com");
        assertThat(RouteMatch.hostName("example.com")).isEqualTo("example.com");
        assertThat(RouteMatch.hostName(null)).isNull();

        RouteMatch m = new RouteMatch(null, ValueMatcher.exact("[::1]").ignoringCase(), Set.of(), List.of(),
                List.of(), List.of());
        assertThat(m.matches(withHeaders(Map.of("Host", "[::1]:8080")), "/")).isTrue();
    }

    @Test
    void aPathPrefixMatchesOnSegmentBoundaries() {
        RouteMatch api = RouteMatch.prefix("/api");
        assertThat(api.matchesPath("/api")).isTrue();
        assertThat(api.matchesPath("/api/")).isTrue();
        assertThat(api.matchesPath("/api/cart")).isTrue();
        assertThat(api.matchesPath("/apix")).isFalse();
        assertThat(api.matchesPath("/ap")).isFalse();
        assertThat(api.matchesPath(null)).isFalse();

        RouteMatch stat = RouteMatch.prefix("/static/");
        assertThat(stat.matchesPath("/static/app.js")).isTrue();
        assertThat(stat.matchesPath("/static")).isFalse();

        RouteMatch any = new RouteMatch(null, null, null, null, null, null);
        assertThat(any.matchesPath("/anything")).isTrue();
        assertThat(any.prefixOnly()).as("no condition beyond the (absent) path").isTrue();
    }

    @Test
    void aPrefixOnlyMatchIsTodaysRoute() {
        assertThat(RouteMatch.prefix("/api").prefixOnly()).isTrue();
        assertThat(new RouteMatch("/api", null, Set.of("GET"), List.of(), List.of(), List.of()).prefixOnly())
                .isFalse();
        assertThat(new RouteMatch("/api", ValueMatcher.exact("h"), Set.of(), List.of(), List.of(), List.of())
                .prefixOnly()).isFalse();
    }
}
