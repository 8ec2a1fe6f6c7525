package dev.fulcrum.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fulcrum.engine.Router;
import dev.fulcrum.engine.routing.CanaryGuard;
import dev.fulcrum.engine.routing.RouteMatch;
import dev.fulcrum.engine.routing.StickyKey;
import dev.fulcrum.engine.routing.ValueMatcher;
import dev.fulcrum.engine.strategy.SimpleRequest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code routes[i]} of issue 34 in the config: each new field bound, checked with the §1 line naming the path and the
 * value, turned into the engine's route, and written back without a key a config did not set.
 */
@DisplayName("Route config")
class RouteConfigTest {
    static final String POOLS = """
            "backends": [ { "id": "a", "url": "http://127.0.0.1:9001" } ],
            "pools": { "stable": { "backends": [ { "id": "s", "url": "http://127.0.0.1:9002" } ] },
                       "canary": { "backends": [ { "id": "c", "url": "http://127.0.0.1:9003" } ] },
                       "shadow": { "backends": [ { "id": "m", "url": "http://127.0.0.1:9004" } ] } }
            """;

    static String config(String routes) {
        return "{ " + POOLS + ", \"routes\": [ " + routes + " ] }";
    }

    static List<String> errors(String routes) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(config(routes)));
        assertThat(e).as("refused: %s", routes).isNotNull();
        return e.lines();
    }

    static final String SPLIT = "\"split\": [ { \"pool\": \"stable\", \"weight\": 95 }, "
            + "{ \"pool\": \"canary\", \"weight\": 5 } ]";

    /** A route that sets every field issue 34 adds. */
    static final String EVERYTHING = """
            { "match": { "pathPrefix": "/shop", "host": { "prefix": "shop." }, "method": [ "GET", "post" ],
                         "headers": { "X-Canary": "1", "X-Env": { "regex": "^stag" }, "X-Debug": { "present": true },
                                      "X-Block": { "absent": true } },
                         "cookies": { "tier": "vip" }, "query": { "beta": { "prefix": "on" } } },
              "class": "vip", "maxInFlightPerBackend": 8,
              "split": [ { "pool": "stable", "weight": 95 }, { "pool": "canary", "weight": 5 } ],
              "stickyBy": "cookie:uid",
              "mirror": { "pool": "shadow", "percent": 10, "maxBodyBytes": 4096 },
              "guard": { "arm": "canary", "errorRateAbove": 0.05, "p99AboveBaselineBy": 0.5, "minRequests": 200,
                         "forMs": 30000 } }
            """;

    /** A class's route with its own strategy over its one pool. */
    static final String VIP = """
            { "match": { "pathPrefix": "/api", "headers": { "X-Tier": "vip" } }, "pool": "stable", "class": "vip",
              "strategy": { "type": "least-requests" }, "maxInFlightPerBackend": 4 }
            """;

    // ------------------------------------------------------------------ read and turned into the engine's route

    @Test
    void everyNewFieldIsReadAndBecomesTheEnginesRoute() {
        FulcrumConfig c = ConfigLoader.parse(config(EVERYTHING + ", " + VIP));
        RouteConfig r = c.routes().get(0);
        assertThat(r.pathPrefix()).isNull();
        assertThat(r.prefix()).isEqualTo("/shop");
        assertThat(r.match().headers()).containsEntry("X-Canary", MatchValue.exactly("1"))
                .containsEntry("X-Env", new MatchValue(null, null, "^stag", null, null));
        assertThat(r.routeClass()).isEqualTo("vip");
        assertThat(r.mirror()).isEqualTo(new MirrorConfig("shadow", 10, 4096));
        assertThat(r.guard()).isEqualTo(new GuardConfig("canary", 0.05, 0.5, 200, 30000));

        Router.Route route = c.toRouter().route(0);
        RouteMatch m = route.match();
        assertThat(m.pathPrefix()).isEqualTo("/shop");
        assertThat(m.methods()).containsExactlyInAnyOrder("GET", "POST");
        assertThat(m.host()).isEqualTo(ValueMatcher.prefix("shop.").ignoringCase());
        assertThat(m.headers()).contains(new RouteMatch.Named("X-Env", ValueMatcher.regex("^stag")),
                new RouteMatch.Named("X-Block", ValueMatcher.absent()));
        assertThat(route.pool()).isNull();
        assertThat(route.pools()).containsExactly("stable", "canary");
        assertThat(route.split().stickyBy()).isEqualTo(StickyKey.parse("cookie:uid"));
        assertThat(route.routeClass()).isEqualTo("vip");
        assertThat(route.strategy()).isNull();
        assertThat(c.toRouter().route(1).strategy().spec().type()).isEqualTo("least-requests");
        assertThat(c.toRouter().route(1).ceiling().max()).isEqualTo(4);
        assertThat(route.ceiling().max()).isEqualTo(8);
        assertThat(route.mirror().pool()).isEqualTo("shadow");
        assertThat(route.mirror().percent()).isEqualTo(10);
        assertThat(route.mirror().maxBodyBytes()).isEqualTo(4096);
        CanaryGuard g = route.guard();
        assertThat(List.of(g.arm(), g.errorRateAbove(), g.p99AboveBaselineBy(), g.minRequests(), g.forMs()))
                .containsExactly("canary", 0.05, 0.5, 200, 30000L);

        SimpleRequest vip = new SimpleRequest("10.0.0.1", "POST", "/shop/cart",
                Map.of("host", "SHOP.example.com:8080", "x-canary", "1", "X-Env", "staging", "X-Debug", ""),
                Map.of("tier", "vip"), Map.of("beta", "on"));
        assertThat(m.matches(vip, "/shop/cart")).isTrue();
    }

    @Test
    void theDefaultsOfAMirrorAndAGuard() {
        FulcrumConfig c = ConfigLoader.parse(config("{ \"pathPrefix\": \"/shop\", " + SPLIT
                + ", \"mirror\": { \"pool\": \"shadow\" }, \"guard\": { \"arm\": \"canary\", \"errorRateAbove\": 0.1 } }"));
        assertThat(c.routes().get(0).mirror()).isEqualTo(new MirrorConfig("shadow", 100, 65536));
        assertThat(c.routes().get(0).guard()).isEqualTo(new GuardConfig("canary", 0.1, null, 100, 10_000));
        assertThat(c.routes().get(0).stickyBy()).isNull();
        assertThat(c.toRouter().route(0).split().stickyBy()).isSameAs(StickyKey.NONE);
    }

    @Test
    void theReferencesExampleOfRoutesLoads() throws java.io.IOException {
        String doc = java.nio.file.Files.readString(java.nio.file.Path.of("docs/REFERENCE.md"));
        int at = doc.indexOf("```json", doc.indexOf("#### Routes"));
        String example = doc.substring(at + "```json".length(), doc.indexOf("```", at + 7));

        FulcrumConfig c = ConfigLoader.parse(example);
        Router router = c.toRouter();
        assertThat(router.written()).hasSize(4);
        assertThat(router.routes()).as("tried in the order written").containsExactlyElementsOf(router.written());
        SimpleRequest batch = new SimpleRequest("10.0.0.1", "GET", "/api/report", Map.of("X-Batch", "1"), Map.of(),
                Map.of());
        assertThat(router.match(batch, "/api/report").routeClass()).isEqualTo("batch");
        assertThat(router.route(2).guard().arm()).isEqualTo("canary");
    }

    @Test
    void anOldConfigLoadsAsItAlwaysDidAndWritesNoNewKey() {
        FulcrumConfig c = ConfigLoader.parse(config("""
                { "pathPrefix": "/api", "pool": "stable" }, { "pathPrefix": "/api/v2", "pool": "canary", "stripPrefix": true }
                """));
        assertThat(c.routes()).containsExactly(new RouteConfig("/api", "stable", false),
                new RouteConfig("/api/v2", "canary", true));
        Router router = c.toRouter();
        assertThat(router.routes()).as("longest prefix first").extracting(Router.Route::pathPrefix)
                .containsExactly("/api/v2", "/api");
        assertThat(router.written()).allSatisfy(r -> {
            assertThat(r.match()).isEqualTo(RouteMatch.prefix(r.pathPrefix()));
            assertThat(List.of(r.routeClass() == null, r.strategy() == null, r.ceiling() == null, r.split() == null,
                    r.mirror() == null, r.guard() == null)).containsOnly(true);
        });

        JsonNode routes = ConfigWriter.toTree(c).get("routes");
        for (JsonNode r : routes) {
            assertThat(r.properties()).extracting(Map.Entry::getKey)
                    .containsExactly("pathPrefix", "pool", "stripPrefix");
        }
        String json = ConfigWriter.toJson(c);
        for (String key : List.of("\"match\"", "\"class\"", "\"split\"", "\"stickyBy\"", "\"mirror\"", "\"guard\"",
                "\"maxInFlightPerBackend\"", "\"routeClass\"")) {
            assertThat(json).doesNotContain(key);
        }
        assertThat(ConfigLoader.parse(json)).isEqualTo(c);
    }

    @Test
    void aConfigWithEveryNewFieldSurvivesWriteThenRead() {
        FulcrumConfig c = ConfigLoader.parse(config(EVERYTHING + ", { \"pathPrefix\": \"/api\", \"pool\": \"stable\" }, "
                + VIP));
        String json = ConfigWriter.toJson(c);

        assertThat(ConfigLoader.parse(json)).isEqualTo(c);
        JsonNode route = ConfigWriter.toTree(c).get("routes").get(0);
        assertThat(route.properties()).extracting(Map.Entry::getKey).containsExactly("pathPrefix", "pool",
                "stripPrefix", "match", "class", "maxInFlightPerBackend", "split", "stickyBy", "mirror", "guard");
        assertThat(route.get("match").get("headers").get("X-Canary").isTextual()).as("an exact value, bare").isTrue();
        assertThat(route.get("match").get("headers").get("X-Env").toString()).isEqualTo("{\"regex\":\"^stag\"}");
        assertThat(route.get("match").properties()).extracting(Map.Entry::getKey)
                .containsExactly("pathPrefix", "host", "method", "headers", "cookies", "query");
        JsonNode vip = ConfigWriter.toTree(c).get("routes").get(2);
        assertThat(vip.properties()).extracting(Map.Entry::getKey).containsExactly("pathPrefix", "pool",
                "stripPrefix", "match", "class", "strategy", "maxInFlightPerBackend");
        assertThat(vip.get("strategy").get("type").asText()).isEqualTo("least-requests");
        JsonNode plain = ConfigWriter.toTree(c).get("routes").get(1);
        assertThat(plain.properties()).extracting(Map.Entry::getKey)
                .containsExactly("pathPrefix", "pool", "stripPrefix");
    }

    @Test
    void aMatchOfOnlyHeadersWritesOnlyItsHeaders() {
        FulcrumConfig c = ConfigLoader.parse(config(
                "{ \"match\": { \"headers\": { \"X-Batch\": { \"present\": true } } }, \"pool\": \"stable\" }"));
        JsonNode match = ConfigWriter.toTree(c).get("routes").get(0).get("match");
        assertThat(match.toString()).isEqualTo("{\"headers\":{\"X-Batch\":{\"present\":true}}}");
        assertThat(ConfigLoader.parse(ConfigWriter.toJson(c))).isEqualTo(c);
    }

    // ------------------------------------------------------------------ refusals, each with its path and value
    // (a missing field is the binder's and comes before the validator's findings: those lists are in any order)

    @Test
    void aSplitWeightOutOfRangeIsTheContractsExample() {
        assertThat(errors("""
                { "pathPrefix": "/shop", "split": [ { "pool": "stable", "weight": 95 },
                                                    { "pool": "canary", "weight": 2000 } ] }
                """)).containsExactly("config error: routes[0].split[1].weight: must be between 0 and 1000 (got: 2000)");
    }

    @Test
    void aSplitNeedsTwoArmsOfKnownDistinctPoolsAndSomeWeight() {
        assertThat(errors("""
                { "pathPrefix": "/a", "split": [ { "pool": "stable", "weight": 1 } ] },
                { "pathPrefix": "/b", "split": [ { "pool": "stable", "weight": 1 }, { "pool": "nope", "weight": 1 } ] },
                { "pathPrefix": "/c", "split": [ { "pool": "stable", "weight": 1 }, { "pool": "stable", "weight": 1 } ] },
                { "pathPrefix": "/d", "split": [ { "pool": "stable", "weight": 0 }, { "pool": "canary", "weight": 0 } ] },
                { "pathPrefix": "/e", "split": [ { "pool": "stable" }, { "weight": 1 } ] },
                { "pathPrefix": "/f", "split": [ { "pool": "stable", "weight": -1 }, { "pool": "canary", "weight": 1 } ] }
                """)).containsExactlyInAnyOrder(
                "config error: routes[0].split: needs at least 2 arms (got: 1)",
                "config error: routes[1].split[1].pool: no such pool, one of default, stable, canary, shadow (got: nope)",
                "config error: routes[2].split[1].pool: is already an arm of this split (got: stable)",
                "config error: routes[3].split: at least one weight must be above 0 (got: all 0)",
                "config error: routes[4].split[0].weight: required (got: missing)",
                "config error: routes[4].split[1].pool: required (got: missing)",
                "config error: routes[5].split[0].weight: must be between 0 and 1000 (got: -1)");
    }

    @Test
    void aRouteGivesAPoolOrASplitNotBothNorNeither() {
        assertThat(errors("{ \"pathPrefix\": \"/a\", \"pool\": \"stable\", " + SPLIT + " }, { \"pathPrefix\": \"/b\" }"))
                .containsExactly(
                        "config error: routes[0].pool: give pool or split, not both (got: stable)",
                        "config error: routes[1].pool: required (got: missing)");
    }

    @Test
    void aRouteGivesAPathPrefixOrAMatch() {
        assertThat(errors("{ \"pool\": \"stable\" }")).containsExactly(
                "config error: routes[0].pathPrefix: required (got: missing)");
        assertThat(errors("""
                { "pathPrefix": "/a", "match": { "pathPrefix": "/b" }, "pool": "stable" },
                { "match": { "pathPrefix": "b" }, "pool": "stable" }
                """)).containsExactly(
                "config error: routes[0].match.pathPrefix: the route's path prefix is given once, here or as "
                        + "routes[0].pathPrefix (got: /b)",
                "config error: routes[1].match.pathPrefix: must start with / and contain no spaces (got: b)");
    }

    @Test
    void aStickyKeyIsOneOfItsFormsAndOnlyWithASplit() {
        assertThat(errors("""
                { "pathPrefix": "/a", "split": [ { "pool": "stable", "weight": 1 }, { "pool": "canary", "weight": 1 } ],
                  "stickyBy": "session:uid" },
                { "pathPrefix": "/b", "split": [ { "pool": "stable", "weight": 1 }, { "pool": "canary", "weight": 1 } ],
                  "stickyBy": "cookie:" },
                { "pathPrefix": "/c", "pool": "stable", "stickyBy": "ip" }
                """)).containsExactly(
                "config error: routes[0].stickyBy: must be cookie:NAME, header:NAME, ip or none (got: session:uid)",
                "config error: routes[1].stickyBy: needs a cookie name after \"cookie:\" (got: cookie:)",
                "config error: routes[2].stickyBy: only with a split (got: ip)");
    }

    @Test
    void aGuardNeedsASplitACanaryArmAndABound() {
        assertThat(errors("""
                { "pathPrefix": "/a", "pool": "stable", "guard": { "arm": "canary", "errorRateAbove": 0.05 } },
                { "pathPrefix": "/b", "split": [ { "pool": "stable", "weight": 1 }, { "pool": "canary", "weight": 1 } ],
                  "guard": { "arm": "stable", "errorRateAbove": 0.05 } },
                { "pathPrefix": "/c", "split": [ { "pool": "stable", "weight": 1 }, { "pool": "canary", "weight": 1 } ],
                  "guard": { "arm": "shadow", "errorRateAbove": 0.05 } },
                { "pathPrefix": "/d", "split": [ { "pool": "stable", "weight": 1 }, { "pool": "canary", "weight": 1 } ],
                  "guard": { "arm": "canary" } },
                { "pathPrefix": "/e", "split": [ { "pool": "stable", "weight": 1 }, { "pool": "canary", "weight": 1 } ],
                  "guard": { "errorRateAbove": 0.05 } }
                """)).containsExactlyInAnyOrder(
                "config error: routes[0].guard: only with a split: it judges a split's canary arm against its "
                        + "first (got: no split)",
                "config error: routes[1].guard.arm: is the baseline (the split's first arm) the others are judged "
                        + "against; name the canary (got: stable)",
                "config error: routes[2].guard.arm: must be one of the split's arms, canary (got: shadow)",
                "config error: routes[3].guard: needs errorRateAbove or p99AboveBaselineBy (or both) (got: neither)",
                "config error: routes[4].guard.arm: required (got: missing)");
    }

    @Test
    void aGuardsBoundsAndTimesAreInRange() {
        assertThat(errors("""
                { "pathPrefix": "/a", "split": [ { "pool": "stable", "weight": 1 }, { "pool": "canary", "weight": 1 } ],
                  "guard": { "arm": "canary", "errorRateAbove": 1.5, "p99AboveBaselineBy": 0, "minRequests": 0,
                             "forMs": 999 } },
                { "pathPrefix": "/b", "split": [ { "pool": "stable", "weight": 1 }, { "pool": "canary", "weight": 1 } ],
                  "guard": { "arm": "canary", "errorRateAbove": -0.1, "forMs": 3600001 } }
                """)).containsExactly(
                "config error: routes[0].guard.errorRateAbove: must be a fraction between 0 and 1 (got: 1.5)",
                "config error: routes[0].guard.p99AboveBaselineBy: must be a fraction above 0 (0.5: half as slow "
                        + "again), at most 100 (got: 0)",
                "config error: routes[0].guard.minRequests: must be between 1 and 1000000 (got: 0)",
                "config error: routes[0].guard.forMs: must be between 1000 and 3600000 (got: 999)",
                "config error: routes[1].guard.errorRateAbove: must be a fraction between 0 and 1 (got: -0.1)",
                "config error: routes[1].guard.forMs: must be between 1000 and 3600000 (got: 3600001)");
    }

    @Test
    void aRegexThatDoesNotCompileIsNamedWithItsPosition() {
        assertThat(errors("""
                { "match": { "headers": { "X-Env": { "regex": "^stag(" } } }, "pool": "stable" }
                """)).containsExactly("config error: routes[0].match.headers.X-Env.regex: is not a regular "
                + "expression: Unclosed group at position 6 (got: ^stag()");
    }

    @Test
    void aMatchValueGivesOneCondition() {
        assertThat(errors("""
                { "match": { "headers": { "X-Env": { "prefix": "stag", "regex": "^stag" } } }, "pool": "stable" },
                { "match": { "cookies": { "tier": { } } }, "pool": "stable" },
                { "match": { "query": { "beta": { "exact": "1", "present": true, "absent": true } } }, "pool": "stable" }
                """)).containsExactly(
                "config error: routes[0].match.headers.X-Env: must be a string, or an object with one of prefix, "
                        + "regex, present, absent (got: prefix and regex)",
                "config error: routes[1].match.cookies.tier: must be a string, or an object with one of prefix, "
                        + "regex, present, absent (got: {})",
                "config error: routes[2].match.query.beta: must be a string, or an object with one of prefix, "
                        + "regex, present, absent (got: exact and present and absent)");
    }

    @Test
    void aMatchValueOfAnotherJsonTypeIsToldBothFormsItMayTake() {
        assertThat(errors("""
                { "match": { "headers": { "X-Canary": 1 }, "cookies": { "tier": null }, "host": true },
                  "pool": "stable" }
                """)).containsExactlyInAnyOrder(
                "config error: routes[0].match.host: must be a string, or an object with one of prefix, regex, "
                        + "present, absent (got: true)",
                "config error: routes[0].match.headers.X-Canary: must be a string, or an object with one of prefix, "
                        + "regex, present, absent (got: 1)",
                "config error: routes[0].match.cookies.tier: must be a string, or an object with one of prefix, "
                        + "regex, present, absent (got: null)");
    }

    @Test
    void namesAndMethodsMustBeTokens() {
        assertThat(errors("""
                { "match": { "headers": { "X Env": "1" }, "cookies": { "a;b": "1" }, "method": [ "GE T" ] },
                  "pool": "stable" }
                """)).containsExactly(
                "config error: routes[0].match.method[0]: must be a method name such as GET (got: GE T)",
                "config error: routes[0].match.headers.X Env: must be a header name (letters, digits and "
                        + "!#$%&'*+.^_`|~-) (got: X Env)",
                "config error: routes[0].match.cookies.a;b: must be a cookie name (letters, digits and "
                        + "!#$%&'*+.^_`|~-) (got: a;b)");
    }

    @Test
    void aMirrorGoesToAnotherKnownPoolWithinItsLimits() {
        assertThat(errors("""
                { "pathPrefix": "/a", "pool": "stable", "mirror": { "pool": "stable" } },
                { "pathPrefix": "/b", "split": [ { "pool": "stable", "weight": 1 }, { "pool": "canary", "weight": 1 } ],
                  "mirror": { "pool": "canary" } },
                { "pathPrefix": "/c", "pool": "stable", "mirror": { "pool": "nope", "percent": 150,
                                                                   "maxBodyBytes": -1 } },
                { "pathPrefix": "/d", "pool": "stable", "mirror": { "percent": 10 } }
                """)).containsExactlyInAnyOrder(
                "config error: routes[0].mirror.pool: must be a pool the route does not send to (got: stable)",
                "config error: routes[1].mirror.pool: must be a pool the route does not send to (got: canary)",
                "config error: routes[2].mirror.pool: no such pool, one of default, stable, canary, shadow (got: nope)",
                "config error: routes[2].mirror.percent: must be a percentage between 0 and 100 (got: 150)",
                "config error: routes[2].mirror.maxBodyBytes: must be between 0 and 16777216 (got: -1)",
                "config error: routes[3].mirror.pool: required (got: missing)");
    }

    @Test
    void aClassIsAShortLowerCaseWordAndACeilingAtLeastOne() {
        assertThat(errors("""
                { "pathPrefix": "/a", "pool": "stable", "class": "VIP", "maxInFlightPerBackend": 0 },
                { "pathPrefix": "/b", "pool": "stable", "strategy": { "type": "nope" } }
                """)).containsExactly(
                "config error: routes[0].class: must match [a-z][a-z0-9_-]{0,31} (got: VIP)",
                "config error: routes[0].maxInFlightPerBackend: must be between 1 and 100000 (got: 0)",
                "config error: routes[1].strategy.type: unknown strategy, one of round-robin, random, "
                        + "weighted-random, smooth-weighted-round-robin, least-requests, power-of-two, "
                        + "consistent-hash, maglev, ip-hash, fastest-response, adaptive, score (got: nope)");
    }

    @Test
    void aRoutesOwnStrategyIsForItsOnePoolNotForASplit() {
        assertThat(errors("{ \"pathPrefix\": \"/a\", " + SPLIT + ", \"strategy\": { \"type\": \"least-requests\" } }"))
                .containsExactly("config error: routes[0].strategy: only with pool, not with a split (each arm's "
                        + "pool picks by its own strategy) (got: least-requests)");
    }

    @Test
    void aPrefixRoutedTwiceIsADuplicateWhetherItSplitsOrNot() {
        // both are prefix routes, so the longest-prefix rule sends every /shop request to the first: the second is dead
        assertThat(errors("{ \"pathPrefix\": \"/shop\", \"pool\": \"stable\" }, { \"pathPrefix\": \"/shop\", "
                + SPLIT + " }")).containsExactly("config error: routes[1].pathPrefix: duplicate prefix, already "
                + "routed by routes[0].pathPrefix (got: /shop)");
        // written inside match, the prefix is named there
        assertThat(errors("{ \"match\": { \"pathPrefix\": \"/shop\" }, \"pool\": \"stable\" }, "
                + "{ \"pathPrefix\": \"/shop\", \"pool\": \"canary\" }, "
                + "{ \"match\": { \"pathPrefix\": \"/shop\" }, \"pool\": \"shadow\" }")).containsExactly(
                "config error: routes[1].pathPrefix: duplicate prefix, already routed by routes[0].match.pathPrefix "
                        + "(got: /shop)",
                "config error: routes[2].match.pathPrefix: duplicate prefix, already routed by "
                        + "routes[0].match.pathPrefix (got: /shop)");
        // a route that matches on more than the path may share its prefix with the route after it
        ConfigLoader.parse(config("{ \"match\": { \"pathPrefix\": \"/shop\", \"headers\": { \"X-Canary\": \"1\" } }, "
                + SPLIT + " }, { \"pathPrefix\": \"/shop\", \"pool\": \"stable\" }"));
    }

    @Test
    void anUnknownFieldOfAMatchSaysWhatItProbablyMeant() {
        assertThat(errors("{ \"match\": { \"header\": { \"X-Canary\": \"1\" } }, \"pool\": \"stable\" }"))
                .containsExactly("config error: routes[0].match.header: unknown field, did you mean headers? "
                        + "(got: {\"X-Canary\":\"1\"})");
    }
}
