package dev.fulcrum.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.fulcrum.admin.ExportFixturesForTest.Result;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.Engine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static dev.fulcrum.admin.ExportFixturesForTest.binary;
import static dev.fulcrum.admin.ExportFixturesForTest.nginxConf;
import static dev.fulcrum.admin.ExportFixturesForTest.nginxTest;
import static dev.fulcrum.admin.ExportFixturesForTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Routes that match on more than a path, splits and mirrors in the exports: the real nginx and HAProxy accept the
 * export of every sample and of a config using every kind of match, and the Envoy export has the structure Envoy
 * reads (checked field by field: Envoy is not installed here).
 */
class ConfigExportRoutesTest {
    private static final YAMLMapper YAML = new YAMLMapper();

    /** Every condition, matcher and route option a route can give, in routes Fulcrum tries in order. */
    static final String EVERY_MATCH = """
            { "backends": [ {"id": "d1", "url": "http://127.0.0.1:9001"} ],
              "pools": {
                "stable": { "strategy": {"type": "least-requests"},
                            "backends": [ {"id": "s1", "url": "http://127.0.0.1:9011"},
                                          {"id": "s2", "url": "http://127.0.0.1:9012", "maxInFlight": 50} ] },
                "canary": { "backends": [ {"id": "c1", "url": "http://127.0.0.1:9021"} ] },
                "shadow": { "backends": [ {"id": "m1", "url": "http://127.0.0.1:9031"} ] },
                "batch-pool": { "backends": [ {"id": "b1", "url": "http://127.0.0.1:9041"} ] }
              },
              "routes": [
                { "match": { "pathPrefix": "/api", "host": "Shop.Example.com", "method": ["GET", "post"],
                             "headers": { "X-Canary": "1", "X-Env": {"regex": "^stag"}, "X-Debug": {"present": true},
                                          "X-Block": {"absent": true}, "X-Ver": {"prefix": "v2"} } },
                  "pool": "canary", "stripPrefix": true },
                { "match": { "host": {"prefix": "beta."}, "cookies": { "user": "alice", "tier": {"prefix": "gold"},
                             "seen": {"present": true}, "gone": {"absent": true}, "ab": {"regex": "b$"} } },
                  "pool": "canary" },
                { "match": { "pathPrefix": "/search/", "host": {"regex": "internal"},
                             "query": { "debug": "1", "lang": {"prefix": "en"}, "q": {"present": true},
                                        "nocache": {"absent": true}, "v": {"regex": "^[0-9]+$"} } },
                  "pool": "stable", "stripPrefix": true },
                { "pathPrefix": "/batch", "pool": "batch-pool", "class": "batch", "maxInFlightPerBackend": 2,
                  "strategy": {"type": "least-requests"} },
                { "pathPrefix": "/vip", "pool": "stable", "class": "vip", "strategy": {"type": "round-robin"} },
                { "pathPrefix": "/h", "split": [ {"pool": "stable", "weight": 2}, {"pool": "canary", "weight": 1},
                                                 {"pool": "batch-pool", "weight": 0} ], "stickyBy": "header:X-User" },
                { "pathPrefix": "/ip", "split": [ {"pool": "stable", "weight": 999}, {"pool": "canary", "weight": 1} ],
                  "stickyBy": "ip", "mirror": {"pool": "shadow", "percent": 12.5, "maxBodyBytes": 1024} },
                { "pathPrefix": "/", "split": [ {"pool": "stable", "weight": 50}, {"pool": "canary", "weight": 50} ],
                  "stickyBy": "none", "mirror": {"pool": "shadow"},
                  "guard": {"arm": "canary", "errorRateAbove": 0.1} }
              ] }
            """;

    static Stream<Path> samples() throws IOException {
        try (Stream<Path> files = Files.list(Path.of("samples"))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList().stream();
        }
    }

    private static String export(FulcrumConfig c, String format) {
        try (Engine e = ExportFixturesForTest.engine(c)) {
            return ConfigExport.export(c, e, format, null);
        }
    }

    private static void assertNginxAccepts(String text, Path dir) {
        Path nginx = binary("nginx");
        assumeTrue(nginx != null, "nginx is not installed here (CI installs it)");
        Result r = run(nginxTest(nginx, nginxConf(dir, text)), Duration.ofSeconds(20));
        assertThat(r.exitCode()).as("nginx -t said:\n%s\non:\n%s", r.output(), text).isZero();
        assertThat(r.output()).as("nginx -t on:\n%s", text).doesNotContain("[warn]", "[emerg]");
    }

    private static void assertHaproxyAccepts(String text, Path dir) throws IOException {
        Path haproxy = binary("haproxy");
        assumeTrue(haproxy != null, "haproxy is not installed here (CI installs it)");
        Path cfg = Files.writeString(dir.resolve("haproxy.cfg"), text);
        Result r = run(List.of(haproxy.toString(), "-c", "-f", cfg.toString()), Duration.ofSeconds(20));
        assertThat(r.exitCode()).as("haproxy -c said:\n%s\non:\n%s", r.output(), text).isZero();
        assertThat(r.output()).as("haproxy -c on:\n%s", text).doesNotContain("[WARNING]", "[ALERT]");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void nginxAcceptsTheExportOfEverySample(Path sample, @TempDir Path dir) {
        assertNginxAccepts(export(ConfigLoader.load(sample), "nginx"), dir);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void haproxyAcceptsTheExportOfEverySample(Path sample, @TempDir Path dir) throws IOException {
        assertHaproxyAccepts(export(ConfigLoader.load(sample), "haproxy"), dir);
    }

    @Test
    void nginxAcceptsTheExportOfEveryKindOfMatch(@TempDir Path dir) {
        String text = export(ConfigLoader.parse(EVERY_MATCH), "nginx");
        assertNginxAccepts(text, dir);
        assertThat(text).contains(
                "map $uri $fulcrum_r0_0 {\n    \"~^/api(/|$)\" 1;",
                "map $host $fulcrum_r0_1 {\n    \"~*^Shop\\\\.Example\\\\.com$\" 1;",
                "map $request_method $fulcrum_r0_2 {\n    \"~^(GET|POST)$\" 1;",
                "map $http_x_canary $fulcrum_r0_3 {\n    \"~^1$\" 1;",
                "map $cookie_user ", "map $arg_debug ",
                // a route's flags, then the first route whose flags are all 1
                "\"~^1\" 0;", "\"~^.......1\" 7;",
                // the batch class counts on its own upstream copy, capped at its ceiling
                "upstream batch-pool_r3 {", "server 127.0.0.1:9041 max_fails=5 fail_timeout=30s max_conns=2;",
                "3 batch-pool_r3;", "4 stable_r4;",
                // 2:1:0, sticky by a header, a request without it drawn at random
                "map $http_x_user $fulcrum_split_key_5 {\n    \"\"      $request_id;",
                "split_clients \"${fulcrum_split_key_5}\" $fulcrum_split_5 {\n    66.67% stable;",
                "    * canary;  # canary weight 1\n    # batch-pool: weight 0, no requests\n}",
                "split_clients \"${remote_addr}\" $fulcrum_split_6 {\n    99.90% stable;",
                "split_clients \"${request_id}\" $fulcrum_mirror_sample_6 {\n    12.50% 1;\n    * 0;\n}",
                "map $fulcrum_route $fulcrum_mirror_7 {\n    7 1;",
                "if ($fulcrum_route = 0) {\n        rewrite \"^/api/?(.*)$\" /$1 break;",
                "mirror /_fulcrum_mirror_6;", "mirror /_fulcrum_mirror_7;",
                "proxy_set_header X-Fulcrum-Mirror 1;\n", "proxy_pass http://shadow$request_uri;",
                "no equivalent: the guard on canary");
    }

    @Test
    void haproxyAcceptsTheExportOfEveryKindOfMatch(@TempDir Path dir) throws IOException {
        String text = export(ConfigLoader.parse(EVERY_MATCH), "haproxy");
        assertHaproxyAccepts(text, dir);
        assertThat(text).contains(
                "acl r0_path path /api\n    acl r0_path path_beg /api/\n",
                "acl r0_host req.hdr(host),field(1,:) -i -m str Shop.Example.com",
                "acl r0_method method GET POST", "acl r0_header0 req.fhdr(X-Canary) -m str 1",
                "acl r0_header1 req.fhdr(X-Env) -m reg '^stag'", "acl r0_header2 req.hdr(X-Debug) -m found",
                "acl r0_header4 req.fhdr(X-Ver) -m beg v2",
                "http-request set-var(txn.fulcrum_route) int(0) if r0_path r0_host r0_method r0_header0 r0_header1 "
                        + "r0_header2 !r0_header3 r0_header4\n",
                "acl r1_cookie0 req.cook(user) -m str alice", "acl r2_query0 urlp(debug) -m str 1",
                "http-request set-var(txn.fulcrum_bucket) req.fhdr(X-User),crc32(1),mod(10000) if "
                        + "{ var(txn.fulcrum_route) -m int 5 } { req.fhdr(X-User) -m found }",
                "use_backend stable if { var(txn.fulcrum_route) -m int 5 } { var(txn.fulcrum_bucket) -m int 0:6666 }",
                "use_backend canary if { var(txn.fulcrum_route) -m int 5 }  # canary weight 1: the buckets left",
                "http-request set-var(txn.fulcrum_bucket) src,crc32(1),mod(10000) if { var(txn.fulcrum_route) -m int 6 }\n",
                "use_backend batch-pool_r3 if", "backend batch-pool_r3\n", "server b1 127.0.0.1:9041 weight 1 ",
                "no equivalent: route 6's mirror", "no equivalent: route 7's guard");
        assertThat(text.substring(text.indexOf("backend batch-pool_r3"))).contains("maxconn 2");
    }

    @Test
    void theCanarySampleSplits95To5StickyByTheUserCookieAfterTheCanaryHeaderRoute() throws IOException {
        FulcrumConfig c = ConfigLoader.load(Path.of("samples/canary.json"));

        assertThat(export(c, "nginx")).contains("map $http_x_canary $fulcrum_r0_0 {\n    \"~^1$\" 1;",
                "map $cookie_user $fulcrum_split_key_1 {",
                "split_clients \"${fulcrum_split_key_1}\" $fulcrum_split_1 {\n    95.00% stable;  # stable weight 95\n"
                        + "    * canary;  # canary weight 5\n}",
                "map $fulcrum_route $fulcrum_upstream {\n    0 canary;\n    1 $fulcrum_split_1;",
                "proxy_pass http://$fulcrum_upstream;");
        assertThat(export(c, "haproxy")).contains("req.cook(user),crc32(1),mod(10000)",
                "use_backend canary if { var(txn.fulcrum_route) -m int 0 }\n",
                "use_backend stable if { var(txn.fulcrum_route) -m int 1 } { var(txn.fulcrum_bucket) -m int 0:9499 }");

        JsonNode routes = routes(YAML.readTree(export(c, "envoy")));
        assertThat(routes).hasSize(2);
        assertThat(routes.at("/0/match/headers/0/name").asText()).isEqualTo("x-canary");
        assertThat(routes.at("/0/match/headers/0/string_match/exact").asText()).isEqualTo("1");
        assertThat(routes.at("/0/route/cluster").asText()).isEqualTo("canary");
        JsonNode arms = routes.at("/1/route/weighted_clusters/clusters");
        assertThat(arms).extracting(a -> a.path("name").asText()).containsExactly("stable", "canary");
        assertThat(arms).extracting(a -> a.path("weight").asInt()).containsExactly(95, 5);
        assertThat(routes.at("/1/route/hash_policy/0/cookie/name").asText()).isEqualTo("user");
    }

    @Test
    void theMirrorSampleCopiesTenPercentToTheShadowPool() throws IOException {
        FulcrumConfig c = ConfigLoader.load(Path.of("samples/mirror.json"));

        assertThat(export(c, "nginx")).contains("split_clients \"${request_id}\" $fulcrum_mirror_sample_0 {\n"
                + "    10.00% 1;\n    * 0;\n}", "mirror /_fulcrum_mirror_0;", "location = /_fulcrum_mirror_0 {\n"
                + "        internal;\n        if ($fulcrum_mirror_0 = 0) {\n            return 204;",
                "proxy_pass http://shadow$request_uri;");
        assertThat(export(c, "haproxy")).contains("no equivalent: route 0's mirror (10% to pool shadow)");
        JsonNode route = routes(YAML.readTree(export(c, "envoy"))).get(0);
        assertThat(route.at("/route/cluster").asText()).isEqualTo("stable");
        JsonNode mirror = route.at("/route/request_mirror_policies/0");
        assertThat(mirror.path("cluster").asText()).isEqualTo("shadow");
        assertThat(mirror.at("/runtime_fraction/default_value/numerator").asInt()).isEqualTo(10);
        assertThat(mirror.at("/runtime_fraction/default_value/denominator").asText()).isEqualTo("HUNDRED");
    }

    @Test
    void envoyReadsEveryKindOfMatchAndEveryRouteNamesAClusterItDefines() throws IOException {
        JsonNode root = YAML.readTree(export(ConfigLoader.parse(EVERY_MATCH), "envoy"));
        Set<String> clusters = new HashSet<>();
        root.at("/static_resources/clusters").forEach(c -> clusters.add(c.path("name").asText()));
        JsonNode routes = routes(root);

        List<String> named = new ArrayList<>();
        for (JsonNode r : routes) {
            if (r.at("/route/cluster").isTextual()) {
                named.add(r.at("/route/cluster").asText());
            }
            r.at("/route/weighted_clusters/clusters").forEach(a -> named.add(a.path("name").asText()));
            r.at("/route/request_mirror_policies").forEach(m -> named.add(m.path("cluster").asText()));
        }
        assertThat(clusters).containsAll(named).contains("batch-pool_r3", "stable_r4");
        // route 0 is /api (two Envoy routes, the path and below it), in Fulcrum's order
        assertThat(routes.at("/0/match/path").asText()).isEqualTo("/api");
        assertThat(routes.at("/1/match/prefix").asText()).isEqualTo("/api/");
        assertThat(routes.at("/0/route/prefix_rewrite").asText()).isEqualTo("/");
        JsonNode headers = routes.at("/0/match/headers");
        assertThat(headers).extracting(h -> h.path("name").asText())
                .containsExactly(":authority", ":method", "x-canary", "x-env", "x-debug", "x-block", "x-ver");
        assertThat(headers.at("/0/string_match/safe_regex/regex").asText())
                .isEqualTo("(?i)Shop\\.Example\\.com(?::[0-9]+)?");
        assertThat(headers.at("/1/string_match/safe_regex/regex").asText()).isEqualTo("GET|POST");
        assertThat(headers.at("/3/string_match/safe_regex/regex").asText()).isEqualTo(".*(?:^stag).*");
        assertThat(headers.at("/4/present_match").asBoolean()).isTrue();
        assertThat(headers.at("/5/invert_match").asBoolean()).isTrue();
        assertThat(headers.at("/6/string_match/prefix").asText()).isEqualTo("v2");
        // cookies are a regular expression over the cookie header; an absent one inverts it
        JsonNode cookies = routes.at("/2/match/headers");
        assertThat(cookies.at("/1/name").asText()).isEqualTo("cookie");
        assertThat(cookies.at("/1/string_match/safe_regex/regex").asText()).isEqualTo("(?:.*;\\s*)?user=alice(?:;.*)?");
        assertThat(cookies.at("/4/invert_match").asBoolean()).isTrue();
        // query parameters; an absent one is an inverted match on the path
        JsonNode search = routes.get(3);
        assertThat(search.at("/match/prefix").asText()).isEqualTo("/search/");
        assertThat(search.at("/match/query_parameters")).extracting(q -> q.path("name").asText())
                .containsExactly("debug", "lang", "q", "v");
        assertThat(search.at("/match/headers/1/name").asText()).isEqualTo(":path");
        assertThat(search.at("/match/headers/1/invert_match").asBoolean()).isTrue();
        // splits: weighted_clusters whose weights are the split's
        JsonNode h = findRoute(routes, "/h");
        assertThat(h.at("/route/weighted_clusters/clusters")).extracting(a -> a.path("weight").asInt())
                .containsExactly(2, 1, 0);
        JsonNode ip = findRoute(routes, "/ip");
        assertThat(ip.at("/route/request_mirror_policies/0/runtime_fraction/default_value/numerator").asLong())
                .isEqualTo(125_000);
        assertThat(ip.at("/route/request_mirror_policies/0/runtime_fraction/default_value/denominator").asText())
                .isEqualTo("MILLION");
        JsonNode last = routes.get(routes.size() - 1);
        assertThat(last.at("/match/prefix").asText()).isEqualTo("/");
        assertThat(last.at("/route/weighted_clusters/clusters")).hasSize(2);
    }

    private static JsonNode findRoute(JsonNode routes, String path) {
        for (JsonNode r : routes) {
            if (r.at("/match/path").asText().equals(path)) {
                return r;
            }
        }
        throw new AssertionError("no route on " + path + " in " + routes);
    }

    private static JsonNode routes(JsonNode root) {
        return root.at("/static_resources/listeners/0/filter_chains/0/filters/0/typed_config/route_config"
                + "/virtual_hosts/0/routes");
    }
}
