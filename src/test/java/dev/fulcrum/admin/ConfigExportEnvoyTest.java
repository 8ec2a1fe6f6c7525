package dev.fulcrum.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.Engine;
import dev.fulcrum.engine.strategy.StrategySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static dev.fulcrum.admin.ExportFixturesForTest.engine;
import static dev.fulcrum.admin.ExportFixturesForTest.richConfig;
import static org.assertj.core.api.Assertions.assertThat;

/** Envoy cannot be installed here, so its export is parsed as YAML and checked field by field. */
class ConfigExportEnvoyTest {
    private static final YAMLMapper YAML = new YAMLMapper();
    private Engine engine;

    @AfterEach
    void stop() {
        if (engine != null) {
            engine.close();
        }
    }

    private JsonNode export(FulcrumConfig config, String pool) throws IOException {
        if (engine != null) {
            engine.close();
        }
        engine = engine(config);
        engine.drain("b");
        return YAML.readTree(ConfigExport.export(config, engine, "envoy", pool));
    }

    private static JsonNode cluster(JsonNode root, String name) {
        for (JsonNode c : root.at("/static_resources/clusters")) {
            if (c.path("name").asText().equals(name)) {
                return c;
            }
        }
        throw new AssertionError("no cluster " + name + " in " + root);
    }

    private static JsonNode routes(JsonNode root) {
        return root.at("/static_resources/listeners/0/filter_chains/0/filters/0/typed_config/route_config"
                + "/virtual_hosts/0/routes");
    }

    static List<StrategySpec> strategies() {
        return ExportFixturesForTest.everyStrategy();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("strategies")
    void everyStrategyGivesAWellFormedBootstrapWhoseRoutesNameItsClusters(StrategySpec strategy) throws IOException {
        JsonNode root = export(richConfig(strategy), null);

        JsonNode listener = root.at("/static_resources/listeners/0");
        assertThat(listener.at("/address/socket_address/port_value").asInt()).isEqualTo(8080);
        JsonNode hcm = listener.at("/filter_chains/0/filters/0");
        assertThat(hcm.path("name").asText()).isEqualTo("envoy.filters.network.http_connection_manager");
        assertThat(hcm.at("/typed_config/@type").asText()).endsWith("http_connection_manager.v3.HttpConnectionManager");
        assertThat(hcm.at("/typed_config/http_filters/0/name").asText()).isEqualTo("envoy.filters.http.router");
        Set<String> clusters = new HashSet<>();
        for (JsonNode c : root.at("/static_resources/clusters")) {
            clusters.add(c.path("name").asText());
            assertThat(c.path("lb_policy").asText()).isIn("ROUND_ROBIN", "LEAST_REQUEST", "RING_HASH", "MAGLEV", "RANDOM");
            assertThat(c.at("/load_assignment/cluster_name").asText()).isEqualTo(c.path("name").asText());
            for (JsonNode locality : c.at("/load_assignment/endpoints")) {
                for (JsonNode e : locality.path("lb_endpoints")) {
                    assertThat(e.path("load_balancing_weight").asInt()).isPositive();
                    assertThat(e.at("/endpoint/address/socket_address/port_value").asInt()).isPositive();
                }
            }
        }
        assertThat(clusters).containsExactly("default", "api");
        for (JsonNode r : routes(root)) {
            assertThat(clusters).contains(r.at("/route/cluster").asText());
        }
    }

    @Test
    void aConfigAtTheEdgesStillParsesWithDnsForHostNamesAndEmptyPools() throws IOException {
        JsonNode root = export(ExportFixturesForTest.edgeConfig(), null);

        assertThat(cluster(root, "x").path("type").asText()).isEqualTo("STRICT_DNS");
        assertThat(cluster(root, "default").path("type").asText()).isEqualTo("STATIC");
        assertThat(cluster(root, "odd_pool.v2").at("/load_assignment/endpoints").size()).isZero();
        assertThat(cluster(root, "default").path("health_checks").isMissingNode()).isTrue();
        assertThat(cluster(root, "default").path("outlier_detection").isMissingNode()).isTrue();
        JsonNode b = cluster(root, "default").at("/load_assignment/endpoints/0/lb_endpoints/1");
        assertThat(b.path("health_status").asText()).as("weight 0 sends nothing").isEqualTo("DRAINING");
        List<String> matches = new ArrayList<>();
        for (JsonNode r : routes(root)) {
            matches.add(r.at("/match/path").asText(r.at("/match/prefix").asText()));
            assertThat(r.at("/route/retry_policy").isMissingNode()).isTrue();
        }
        assertThat(matches).containsExactly("/deep/er", "/deep/er/", "/a b/", "/");
    }

    @Test
    void eachStrategyBecomesTheNearestLbPolicy() throws IOException {
        assertThat(policy(StrategySpec.of(StrategySpec.ROUND_ROBIN))).isEqualTo("ROUND_ROBIN");
        assertThat(policy(StrategySpec.of(StrategySpec.SMOOTH_WRR))).isEqualTo("ROUND_ROBIN");
        assertThat(policy(StrategySpec.of(StrategySpec.RANDOM))).isEqualTo("RANDOM");
        assertThat(policy(StrategySpec.of(StrategySpec.WEIGHTED_RANDOM))).isEqualTo("RANDOM");
        assertThat(policy(StrategySpec.of(StrategySpec.LEAST_REQUESTS))).isEqualTo("LEAST_REQUEST");
        assertThat(policy(StrategySpec.of(StrategySpec.FASTEST_RESPONSE))).isEqualTo("LEAST_REQUEST");
        assertThat(policy(StrategySpec.of(StrategySpec.ADAPTIVE))).isEqualTo("LEAST_REQUEST");
        assertThat(policy(StrategySpec.of(StrategySpec.CONSISTENT_HASH))).isEqualTo("RING_HASH");
        assertThat(policy(StrategySpec.of(StrategySpec.IP_HASH))).isEqualTo("RING_HASH");
        assertThat(policy(StrategySpec.of(StrategySpec.MAGLEV))).isEqualTo("MAGLEV");
    }

    private String policy(StrategySpec s) throws IOException {
        return cluster(export(richConfig(s), null), "default").path("lb_policy").asText();
    }

    @Test
    void endpointsCarryLiveWeightsDrainStatesAndBackupPriority() throws IOException {
        FulcrumConfig config = richConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR));
        engine = engine(config);
        engine.drain("b");
        engine.setWeight("a", 7);

        JsonNode c = cluster(YAML.readTree(ConfigExport.export(config, engine, "envoy", null)), "default");

        JsonNode primary = c.at("/load_assignment/endpoints/0");
        assertThat(primary.path("priority").asInt()).isZero();
        List<String> seen = new ArrayList<>();
        for (JsonNode e : primary.path("lb_endpoints")) {
            seen.add(e.at("/endpoint/address/socket_address/port_value").asInt() + "="
                    + e.path("load_balancing_weight").asInt() + "/" + e.path("health_status").asText("-"));
        }
        assertThat(seen).containsExactly("9001=7/-", "9002=1/DRAINING", "9003=2/-");
        JsonNode backup = c.at("/load_assignment/endpoints/1");
        assertThat(backup.path("priority").asInt()).isEqualTo(1);
        assertThat(backup.at("/lb_endpoints/0/endpoint/address/socket_address/port_value").asInt()).isEqualTo(9004);
        assertThat(c.path("type").asText()).isEqualTo("STATIC");
        assertThat(c.path("connect_timeout").asText()).isEqualTo("3s");
        assertThat(c.at("/round_robin_lb_config/slow_start_config/slow_start_window").asText()).isEqualTo("10s");
        assertThat(c.at("/outlier_detection/consecutive_5xx").asInt()).isEqualTo(5);
        assertThat(c.at("/outlier_detection/base_ejection_time").asText()).isEqualTo("30s");
        assertThat(c.at("/outlier_detection/max_ejection_percent").asInt()).isEqualTo(50);
        JsonNode hc = c.at("/health_checks/0");
        assertThat(hc.path("interval").asText()).isEqualTo("2s");
        assertThat(hc.path("timeout").asText()).isEqualTo("1s");
        assertThat(hc.path("healthy_threshold").asInt()).isEqualTo(2);
        assertThat(hc.path("unhealthy_threshold").asInt()).isEqualTo(3);
        assertThat(hc.at("/http_health_check/path").asText()).isEqualTo("/health");
        assertThat(hc.at("/http_health_check/expected_statuses/0/start").asInt()).isEqualTo(200);
    }

    @Test
    void roundRobinAndRandomWriteEqualWeightsBecauseFulcrumIgnoresThem() throws IOException {
        JsonNode c = cluster(export(richConfig(StrategySpec.of(StrategySpec.ROUND_ROBIN)), null), "default");

        for (JsonNode e : c.at("/load_assignment/endpoints/0/lb_endpoints")) {
            assertThat(e.path("load_balancing_weight").asInt()).isEqualTo(1);
        }
    }

    @Test
    void hashingPoolsGetRingOrTableSizesAndHashPoliciesFallingBackToTheSourceIp() throws IOException {
        JsonNode root = export(richConfig(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "header:X-User-Id").with("virtualNodes", 100).with("balanceFactor", 1.25)), null);
        JsonNode c = cluster(root, "default");
        assertThat(c.at("/ring_hash_lb_config/minimum_ring_size").asLong()).isEqualTo(100 * 4);
        assertThat(c.at("/common_lb_config/consistent_hashing_lb_config/hash_balance_factor").asInt()).isEqualTo(125);
        JsonNode fallback = routes(root).get(routes(root).size() - 1);
        assertThat(fallback.at("/match/prefix").asText()).isEqualTo("/");
        assertThat(fallback.at("/route/hash_policy/0/header/header_name").asText()).isEqualTo("X-User-Id");
        assertThat(fallback.at("/route/hash_policy/0/terminal").asBoolean()).isTrue();
        assertThat(fallback.at("/route/hash_policy/1/connection_properties/source_ip").asBoolean()).isTrue();

        JsonNode maglev = export(richConfig(StrategySpec.bare(StrategySpec.MAGLEV).with("key", "cookie:sid").with("tableSize", 251)), null);
        assertThat(cluster(maglev, "default").at("/maglev_lb_config/table_size").asInt()).isEqualTo(251);
        JsonNode last = routes(maglev).get(routes(maglev).size() - 1);
        assertThat(last.at("/route/hash_policy/0/cookie/name").asText()).isEqualTo("sid");

        JsonNode query = export(richConfig(StrategySpec.bare(StrategySpec.CONSISTENT_HASH).with("key", "query:user")), null);
        JsonNode q = routes(query).get(routes(query).size() - 1);
        assertThat(q.at("/route/hash_policy/0/query_parameter/name").asText()).isEqualTo("user");

        JsonNode ip = export(richConfig(StrategySpec.of(StrategySpec.IP_HASH)), null);
        JsonNode i = routes(ip).get(routes(ip).size() - 1);
        assertThat(i.at("/route/hash_policy").size()).isEqualTo(1);
        assertThat(i.at("/route/hash_policy/0/connection_properties/source_ip").asBoolean()).isTrue();
        // the api pool is least-requests: its routes hash nothing
        assertThat(routes(ip).get(0).at("/route/hash_policy").isMissingNode()).isTrue();
    }

    @Test
    void powerOfTwoAndLeastRequestsSetTheChoiceCount() throws IOException {
        JsonNode p2 = cluster(export(richConfig(StrategySpec.bare(StrategySpec.POWER_OF_TWO).with("choices", 3)), null), "default");
        assertThat(p2.at("/least_request_lb_config/choice_count").asInt()).isEqualTo(3);
        assertThat(p2.at("/least_request_lb_config/slow_start_config/slow_start_window").asText()).isEqualTo("10s");
        JsonNode least = cluster(export(richConfig(StrategySpec.of(StrategySpec.LEAST_REQUESTS)), null), "default");
        assertThat(least.at("/least_request_lb_config/choice_count").asInt()).isEqualTo(4);
    }

    @Test
    void routesMatchAtSegmentBoundariesAndStripWithPrefixRewrite() throws IOException {
        JsonNode routes = routes(export(richConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR)), null));

        List<String> seen = new ArrayList<>();
        for (JsonNode r : routes) {
            JsonNode m = r.path("match");
            String match = m.has("path") ? "path " + m.path("path").asText() : "prefix " + m.path("prefix").asText();
            seen.add(match + " -> " + r.at("/route/cluster").asText()
                    + (r.at("/route/prefix_rewrite").isMissingNode() ? "" : " rewrite " + r.at("/route/prefix_rewrite").asText()));
        }
        assertThat(seen).containsExactly("prefix /static/ -> api", "path /api -> api rewrite /",
                "prefix /api/ -> api rewrite /", "prefix / -> default");
        JsonNode retry = routes.get(3).at("/route/retry_policy");
        assertThat(retry.path("num_retries").asInt()).isEqualTo(2);
        assertThat(retry.at("/retry_host_predicate/0/name").asText()).isEqualTo("envoy.retry_host_predicates.previous_hosts");
        assertThat(retry.at("/retriable_request_headers/0/string_match/safe_regex/regex").asText())
                .isEqualTo("GET|HEAD|OPTIONS");
        assertThat(routes.get(3).at("/route/idle_timeout").asText()).isEqualTo("30s");
    }

    @Test
    void onePoolGetsEveryPath() throws IOException {
        JsonNode root = export(richConfig(StrategySpec.of(StrategySpec.SMOOTH_WRR)), "api");

        assertThat(root.at("/static_resources/clusters").size()).isEqualTo(1);
        assertThat(routes(root).size()).isEqualTo(1);
        assertThat(routes(root).get(0).at("/match/prefix").asText()).isEqualTo("/");
        assertThat(routes(root).get(0).at("/route/cluster").asText()).isEqualTo("api");
    }

    @Test
    void whatEnvoyLacksIsACommentSayingSo() throws IOException {
        engine = engine(richConfig(StrategySpec.of(StrategySpec.MAGLEV)));
        String text = ConfigExport.export(richConfig(StrategySpec.of(StrategySpec.MAGLEV)), engine, "envoy", null);

        assertThat(text).contains("# no equivalent: Fulcrum's circuit breaker",
                "circuit_breakers are concurrency limits",
                "# no equivalent: slow start (10s); Envoy has it only for ROUND_ROBIN and LEAST_REQUEST, not MAGLEV",
                "# no equivalent: per-backend maxInFlight",
                "sticky cookie FULCRUM_STICKY");
    }
}
