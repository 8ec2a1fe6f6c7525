package dev.fulcrum.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Every class of config error gives the docs/REFERENCE.md §1 line with the right JSON path and value, all at once. */
class ConfigErrorsTest {
    private static final String DEMO = "\"demoBackends\": [ { \"id\": \"demo-a\", \"port\": 9101 } ]";

    private static List<String> errors(String json) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(json));
        assertThat(e).as("config should be refused: %s", json).isNotNull();
        return e.lines();
    }

    /** A config with a demo backend and the given extra top-level fields. */
    private static List<String> errorsWith(String fields) {
        return errors("{ " + DEMO + ", " + fields + " }");
    }

    @Test
    void theContractExampleReportsBothTheWeightAndTheStrategyType(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("bad.json");
        Files.writeString(file, """
                {
                  "strategy": { "type": "nope" },
                  "backends": [ { "id": "a", "url": "http://127.0.0.1:9001", "weight": -3 } ]
                }
                """);

        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.load(file));

        assertThat(e.lines()).containsExactlyInAnyOrder(
                "config error: backends[0].weight: must be between 0 and 1000 (got: -3)",
                "config error: strategy.type: unknown strategy, one of round-robin, random, weighted-random, "
                        + "smooth-weighted-round-robin, least-requests, power-of-two, consistent-hash, maglev, "
                        + "ip-hash, fastest-response, adaptive, score (got: nope)");
        assertThat(ConfigLoader.check(file)).hasSize(2);
    }

    @Test
    void anHttp1ServerThatIsNeitherUndertowNorFulcrumIsNamedWithItsValue() {
        assertThat(errorsWith("\"proxy\": { \"http1Server\": \"nginx\" }"))
                .containsExactly("config error: proxy.http1Server: must be \"undertow\" or \"fulcrum\" (got: nginx)");
        assertThat(ConfigLoader.parse("{ " + DEMO + " }").proxy().http1Server()).isEqualTo("fulcrum");
        assertThat(ConfigLoader.parse("{ " + DEMO + ", \"proxy\": { \"http1Server\": \"undertow\" } }").proxy()
                .http1Server()).isEqualTo("undertow");
    }

    @Test
    void theSecondBackendIsNamedByItsIndex() {
        assertThat(errors("""
                { "backends": [ { "id": "a", "url": "http://127.0.0.1:9001" },
                                { "id": "b", "url": "http://127.0.0.1:9002", "weight": -3 } ] }
                """)).containsExactly("config error: backends[1].weight: must be between 0 and 1000 (got: -3)");
    }

    @Test
    void anUnknownFieldIsNamedWithItsPathAndTheFieldItProbablyMeant() {
        assertThat(errorsWith("\"healthCheck\": { \"intervall\": 5000 }")).containsExactly(
                "config error: healthCheck.intervall: unknown field, did you mean intervalMs? (got: 5000)");
    }

    @Test
    void anUnknownFieldFarFromAnyNameListsTheKnownOnes() {
        assertThat(errorsWith("\"retries\": { \"zzzzzzzz\": true }")).containsExactly(
                "config error: retries.zzzzzzzz: unknown field, expected one of maxRetries, retryNonIdempotent "
                        + "(got: true)");
    }

    @Test
    void unknownFieldsAreFoundAtEveryDepth() {
        assertThat(errors("""
                { "colour": "blue",
                  "proxy": { "tls": { "enabeld": true } },
                  "backends": [ { "id": "a", "url": "http://127.0.0.1:9001", "wieght": 2 } ],
                  "pools": { "p": { "strategy": { "type": "maglev", "tablesize": 7 },
                                    "demoBackends": [ { "id": "d", "port": 9101, "latency": 3 } ] } },
                  "routes": [ { "pathPrefix": "/p", "pool": "p", "strip": true } ] }
                """)).containsExactly(
                "config error: colour: unknown field, expected one of proxy, admin, strategy, backends, demoBackends, "
                        + "healthCheck, outlierDetection, circuitBreaker, retries, timeouts, slowStartMs, "
                        + "stickySession, pools, routes, discovery, fallback, pluginBudgetMs (got: \"blue\")",
                "config error: proxy.tls.enabeld: unknown field, did you mean enabled? (got: true)",
                "config error: backends[0].wieght: unknown field, did you mean weight? (got: 2)",
                "config error: pools.p.strategy.tablesize: unknown field, did you mean tableSize? (got: 7)",
                "config error: pools.p.demoBackends[0].latency: unknown field, did you mean latencyMs? (got: 3)",
                "config error: routes[0].strip: unknown field, did you mean stripPrefix? (got: true)");
    }

    @Test
    void wrongJsonTypesNameThePathAndShowTheValueAsWrittenInTheOrderOfTheSchema() {
        assertThat(errorsWith("""
                "proxy": { "port": "abc", "preserveHost": "yes", "host": 127 },
                "slowStartMs": 1.5,
                "retries": { "maxRetries": null },
                "circuitBreaker": { "failureRateThreshold": "half" },
                "routes": {},
                "pools": []
                """)).containsExactly(
                "config error: proxy.host: must be a string (got: 127)",
                "config error: proxy.port: must be an integer (got: \"abc\")",
                "config error: proxy.preserveHost: must be true or false (got: \"yes\")",
                "config error: circuitBreaker.failureRateThreshold: must be a number (got: \"half\")",
                "config error: retries.maxRetries: must be an integer (got: null)",
                "config error: slowStartMs: must be an integer (got: 1.5)",
                "config error: pools: must be an object (got: [])",
                "config error: routes: must be an array (got: {})");
    }

    @Test
    void aWrongTypeForAWholeSectionOrEntryIsOneProblemNotACascade() {
        assertThat(errors("""
                { "proxy": 5, "backends": [ 7, { "id": "b", "url": "http://127.0.0.1:9002", "weight": 2000 } ] }
                """)).containsExactly(
                "config error: proxy: must be an object (got: 5)",
                "config error: backends[0]: must be an object (got: 7)",
                "config error: backends[1].weight: must be between 0 and 1000 (got: 2000)");
    }

    @Test
    void numbersBeyondTheFieldsRangeAreRefused() {
        assertThat(errorsWith("\"proxy\": { \"port\": 99999999999 }, \"timeouts\": { \"readMs\": 99999999999999999999 }"))
                .containsExactly(
                        "config error: proxy.port: is out of range (got: 99999999999)",
                        "config error: timeouts.readMs: is out of range (got: 99999999999999999999)");
    }

    @Test
    void invalidJsonIsReportedWithLineAndColumn() {
        List<String> lines = errors("""
                {
                  "proxy": { "port": 8080, },
                  "demoBackends": []
                }
                """);

        assertThat(lines).containsExactly("config error: proxy: invalid JSON at line 2, column 28: "
                + "expected a field name in double quotes (got: })");
    }

    /**
     * One line a person can act on: where (the JSON path the parser had reached), what in plain words, and the
     * offending token or character, never Jackson's text ({@code (code 39)}, {@code [Source: ...]}, feature names).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "{\\n  \"backends\": [],\\n  x: 1\\n}  | $: invalid JSON at line 3, column 3: expected a field name in double quotes (got: x)",
            "{ \"backends\": [ { \"id\": 'a' } ] } | backends[0].id: invalid JSON at line 1, column 25: JSON strings take double quotes (got: ')",
            "{ \"backends\": [ { \"id\": \"a\" \"url\": 1 } ] } | backends[0]: invalid JSON at line 1, column 29: expected , or } after a value (got: \")",
            "{ \"backends\": [ {} {} ] }          | backends[1]: invalid JSON at line 1, column 20: expected , or ] after a value (got: {)",
            "{ \"slowStartMs\" 5 }                 | slowStartMs: invalid JSON at line 1, column 17: expected : after a field name (got: 5)",
            "{ \"slowStartMs\": tru }              | slowStartMs: invalid JSON at line 1, column 18: expected a value (a string in double quotes, a number, true, false, null, an object or an array) (got: tru)",
            "{ \"slowStartMs\": NaN }              | slowStartMs: invalid JSON at line 1, column 21: expected a value (a string in double quotes, a number, true, false, null, an object or an array) (got: NaN)",
            "{ \"slowStartMs\": 01 }               | slowStartMs: invalid JSON at line 1, column 19: not a valid JSON number (got: 01)",
            "{ // note\\n \"slowStartMs\": 1 }      | $: invalid JSON at line 1, column 3: comments are not allowed in JSON (got: /)",
            "{ \"backends\": [ { \"id\": \"a\" ] }   | backends[0]: invalid JSON at line 1, column 29: expected } to close what is open here (got: ])",
            "{ \"backends\": [ { \"id\": \"a\"\\n     | backends[0]: invalid JSON at line 2, column 1: the document ends before every {, [ and \" is closed (got: end of input)",
            "{ \"slowStartMs\": 1, \"slowStartMs\": 2 } | slowStartMs: invalid JSON at line 1, column 34: field given twice (got: \"slowStartMs\")",
            "{ \"slowStartMs\": 1 } {}             | $: invalid JSON at line 1, column 22: more content after the end of the document (got: {)",
    })
    void invalidJsonIsOneClearLine(String json, String problem) {
        List<String> lines = errors(json.replace("\\n", "\n"));

        assertThat(lines).containsExactly("config error: " + problem);
    }

    @Test
    void aFileStartingWithAByteOrderMarkIsReadAsJson(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("bom.json"), "\uFEFF{ " + DEMO + " }");

        assertThat(ConfigLoader.load(file).demoBackends()).hasSize(1);
    }

    @Test
    void aDocumentThatIsNotAnObjectIsRefused() {
        assertThat(errors("[1, 2]")).containsExactly("config error: $: must be a JSON object (got: [1,2])");
        assertThat(errors("   ")).containsExactly("config error: $: must be a JSON object (got: empty document)");
    }

    @Test
    void aMissingFileIsNamed(@TempDir Path dir) {
        Path missing = dir.resolve("nope.json");
        assertThat(ConfigLoader.check(missing)).extracting(ConfigProblem::toString)
                .containsExactly("config error: $: file does not exist (got: " + missing + ")");
    }

    @Test
    void portsMustBeBetween0And65535() {
        assertThat(errorsWith("\"proxy\": { \"port\": 70000, \"tls\": { \"port\": -1 } }, \"admin\": { \"port\": 65536 }"))
                .containsExactly(
                        "config error: proxy.port: must be between 0 and 65535 (got: 70000)",
                        "config error: proxy.tls.port: must be between 0 and 65535 (got: -1)",
                        "config error: admin.port: must be between 0 and 65535 (got: 65536)");
        assertThat(errors("{ \"demoBackends\": [ { \"id\": \"d\", \"port\": 65536 } ] }"))
                .containsExactly("config error: demoBackends[0].port: must be between 0 and 65535 (got: 65536)");
    }

    @Test
    void weightsMustBeBetween0And1000AndMaxInFlightAtLeastOne() {
        assertThat(errors("""
                { "backends": [ { "id": "a", "url": "http://127.0.0.1:9001", "weight": 1001, "maxInFlight": 0 } ],
                  "demoBackends": [ { "id": "d", "port": 9101, "weight": -1 } ] }
                """)).containsExactly(
                "config error: backends[0].weight: must be between 0 and 1000 (got: 1001)",
                "config error: backends[0].maxInFlight: must be at least 1, or null for no cap (got: 0)",
                "config error: demoBackends[0].weight: must be between 0 and 1000 (got: -1)");
    }

    @Test
    void weightZeroAndTheLimitsThemselvesAreAccepted() {
        FulcrumConfig c = ConfigLoader.parse("""
                { "backends": [ { "id": "a", "url": "http://127.0.0.1:9001", "weight": 0, "maxInFlight": 1 },
                                { "id": "b", "url": "http://127.0.0.1:9002", "weight": 1000 } ] }
                """);
        assertThat(c.backends()).extracting(BackendConfig::weight).containsExactly(0, 1000);
    }

    @Test
    void idsMustBeShortAndOfTheAllowedCharacters() {
        String longId = "x".repeat(65);
        assertThat(errors("""
                { "backends": [ { "id": "a b", "url": "http://127.0.0.1:9001" },
                                { "id": "", "url": "http://127.0.0.1:9002" },
                                { "id": "%s", "url": "http://127.0.0.1:9003" },
                                { "url": "http://127.0.0.1:9004" },
                                { "id": "ok.Name_9-x", "url": "http://127.0.0.1:9005" } ] }
                """.formatted(longId))).containsExactly(
                "config error: backends[3].id: required (got: missing)",
                "config error: backends[0].id: must be 1-64 characters of A-Z a-z 0-9 . _ - (got: a b)",
                "config error: backends[1].id: must be 1-64 characters of A-Z a-z 0-9 . _ - (got: )",
                "config error: backends[2].id: must be 1-64 characters of A-Z a-z 0-9 . _ - (got: " + longId + ")");
    }

    @Test
    void idsAreUniqueAcrossBackendsDemoBackendsAndPools() {
        assertThat(errors("""
                { "backends": [ { "id": "a", "url": "http://127.0.0.1:9001" } ],
                  "demoBackends": [ { "id": "a", "port": 9101 } ],
                  "pools": { "p": { "backends": [ { "id": "a", "url": "http://127.0.0.1:9002" } ],
                                    "demoBackends": [ { "id": "d", "port": 9102 } ] },
                             "q": { "demoBackends": [ { "id": "d", "port": 9103 } ] } } }
                """)).containsExactly(
                "config error: demoBackends[0].id: duplicate id, already used by backends[0] (got: a)",
                "config error: pools.p.backends[0].id: duplicate id, already used by backends[0] (got: a)",
                "config error: pools.q.demoBackends[0].id: duplicate id, already used by pools.p.demoBackends[0] "
                        + "(got: d)");
    }

    @Test
    void urlsMustBeAbsoluteHttpWithHostAndPortAndNoPath() {
        assertThat(errors("""
                { "backends": [ { "id": "a", "url": "http://127.0.0.1:9001/api" },
                                { "id": "b", "url": "127.0.0.1:9002" },
                                { "id": "c", "url": "https://127.0.0.1:9003" },
                                { "id": "d", "url": "http://127.0.0.1" },
                                { "id": "e", "url": "http://127.0.0.1:9005/" },
                                { "id": "f", "url": "http://exa mple:1" },
                                { "id": "g" },
                                { "id": "h", "url": "http://backend.internal:8080" } ] }
                """)).containsExactly(
                "config error: backends[6].url: required (got: missing)",
                "config error: backends[0].url: must be http://host:port with no path, query or fragment "
                        + "(not even a trailing /) (got: http://127.0.0.1:9001/api)",
                "config error: backends[1].url: must be an absolute http://host:port URL (got: 127.0.0.1:9002)",
                "config error: backends[2].url: must be an absolute http://host:port URL (scheme http) "
                        + "(got: https://127.0.0.1:9003)",
                "config error: backends[3].url: must be an absolute http://host:port URL with a port between 1 "
                        + "and 65535 (got: http://127.0.0.1)",
                "config error: backends[4].url: must be http://host:port with no path, query or fragment "
                        + "(not even a trailing /) (got: http://127.0.0.1:9005/)",
                "config error: backends[5].url: must be an absolute http://host:port URL (got: http://exa mple:1)");
    }

    @Test
    void anUnknownStrategyListsEveryType() {
        assertThat(errorsWith("\"strategy\": { \"type\": \"nope\" }")).containsExactly(
                "config error: strategy.type: unknown strategy, one of round-robin, random, weighted-random, "
                        + "smooth-weighted-round-robin, least-requests, power-of-two, consistent-hash, maglev, "
                        + "ip-hash, fastest-response, adaptive, score (got: nope)");
        assertThat(errorsWith("\"strategy\": { \"key\": \"ip\" }"))
                .containsExactly("config error: strategy.type: required (got: missing)");
    }

    @Test
    void maglevTableSizeMustBePrime() {
        assertThat(errorsWith("\"strategy\": { \"type\": \"maglev\", \"tableSize\": 65536 }"))
                .containsExactly("config error: strategy.tableSize: must be prime (e.g. 65537) (got: 65536)");
        assertThat(errorsWith("\"strategy\": { \"type\": \"maglev\", \"tableSize\": 2000003 }"))
                .containsExactly("config error: strategy.tableSize: must be a prime between 3 and 1000003 "
                        + "(got: 2000003)");
        assertThat(ConfigLoader.parse("{ " + DEMO + ", \"strategy\": { \"type\": \"maglev\", \"tableSize\": 251 } }")
                .strategy().integer("tableSize")).isEqualTo(251);
    }

    @Test
    void consistentHashSettingsAreChecked() {
        assertThat(errorsWith("""
                "strategy": { "type": "consistent-hash", "virtualNodes": 10001, "balanceFactor": 1.0, "key": "body" }
                """)).containsExactly(
                "config error: strategy.key: must be one of ip, path, header:NAME, cookie:NAME, query:NAME (got: body)",
                "config error: strategy.virtualNodes: must be between 1 and 10000 (got: 10001)",
                "config error: strategy.balanceFactor: must be greater than 1 (e.g. 1.25), or null for off (got: 1)");
        assertThat(errorsWith("\"strategy\": { \"type\": \"consistent-hash\", \"virtualNodes\": 0 }"))
                .containsExactly("config error: strategy.virtualNodes: must be between 1 and 10000 (got: 0)");
    }

    @Test
    void everyKeyFormOfTheContractIsAccepted() {
        for (String key : List.of("ip", "path", "header:X-User", "cookie:session", "query:user")) {
            FulcrumConfig c = ConfigLoader.parse("{ " + DEMO + ", \"strategy\": { \"type\": \"maglev\", \"key\": \""
                    + key + "\" } }");
            assertThat(c.strategy().key()).isEqualTo(key);
        }
        assertThat(errorsWith("\"strategy\": { \"type\": \"maglev\", \"key\": \"header:\" }")).containsExactly(
                "config error: strategy.key: must be one of ip, path, header:NAME, cookie:NAME, query:NAME "
                        + "(got: header:)");
    }

    @Test
    void powerOfTwoNeedsAtLeastTwoChoices() {
        assertThat(errorsWith("\"strategy\": { \"type\": \"power-of-two\", \"choices\": 1 }"))
                .containsExactly("config error: strategy.choices: must be between 2 and 100 (got: 1)");
    }

    @Test
    void adaptiveWeightsTakeOnlyKnownMetricsWithNonNegativeValues() {
        assertThat(errorsWith("""
                "strategy": { "type": "adaptive", "weights": { "cpu": -0.5, "gpu": 1, "latency": 0.5 },
                              "staleAfterMs": 0 }
                """)).containsExactly(
                "config error: strategy.staleAfterMs: must be greater than 0 (got: 0)",
                "config error: strategy.weights.cpu: must be a number >= 0 (got: -0.5)",
                "config error: strategy.weights.gpu: unknown metric, one of cpu, latency, inflight (got: gpu)");
        assertThat(errorsWith("\"strategy\": { \"type\": \"adaptive\", \"weights\": { \"cpu\": 0 } }"))
                .containsExactly("config error: strategy.weights: at least one weight must be greater than 0 "
                        + "(got: {cpu=0.0})");
        assertThat(errorsWith("\"strategy\": { \"type\": \"adaptive\", \"weights\": { \"cpu\": \"high\" } }"))
                .containsExactly("config error: strategy.weights.cpu: must be a number (got: \"high\")");
    }

    @Test
    void aStrategyFieldItsTypeDoesNotUseIsAnError() {
        assertThat(errorsWith("\"strategy\": { \"type\": \"round-robin\", \"virtualNodes\": 100 }")).containsExactly(
                "config error: strategy.virtualNodes: not used by strategy round-robin (it takes no settings) "
                        + "(got: 100)");
        assertThat(errorsWith("\"strategy\": { \"type\": \"maglev\", \"balanceFactor\": 1.25 }")).containsExactly(
                "config error: strategy.balanceFactor: not used by strategy maglev, which takes key, tableSize "
                        + "(got: 1.25)");
        assertThat(errorsWith("\"strategy\": { \"type\": \"fastest-response\", \"decayMs\": -1 }")).containsExactly(
                "config error: strategy.decayMs: must be greater than 0 (got: -1)");
    }

    @Test
    void probabilitiesPercentagesAndDurationsAreRangeChecked() {
        assertThat(errors("""
                { "demoBackends": [ { "id": "d", "port": 9101, "errorRate": 1.5, "latencyMs": -1 } ],
                  "healthCheck": { "path": "health", "intervalMs": 0, "timeoutMs": -5, "expectedStatus": 700,
                                   "rise": 0, "fall": 0 },
                  "outlierDetection": { "consecutiveFailures": 0, "baseEjectionMs": 0, "maxEjectionPercent": 101 },
                  "circuitBreaker": { "window": 5, "minimumCalls": 6, "failureRateThreshold": 150,
                                      "slowCallMs": 0, "slowCallRateThreshold": -1, "openMs": 0, "halfOpenCalls": 0 },
                  "retries": { "maxRetries": -1 },
                  "timeouts": { "connectMs": 0, "readMs": 0, "idleMs": 0, "requestHeaderMs": 0 },
                  "slowStartMs": -1,
                  "stickySession": { "cookie": "bad cookie", "ttlSeconds": 0, "secret": "short" },
                  "proxy": { "maxHeaderBytes": 0, "drainTimeoutMs": -1, "ioThreads": 1000 } }
                """)).containsExactly(
                "config error: proxy.maxHeaderBytes: must be at least 1 (got: 0)",
                "config error: proxy.drainTimeoutMs: must be at least 0 (got: -1)",
                "config error: proxy.ioThreads: must be between 0 and 256 (got: 1000)",
                "config error: demoBackends[0].latencyMs: must be between 0 and 60000 (got: -1)",
                "config error: demoBackends[0].errorRate: must be between 0 and 1 (got: 1.5)",
                "config error: healthCheck.path: must start with / and contain no spaces (got: health)",
                "config error: healthCheck.intervalMs: must be between 1 and 3600000 (got: 0)",
                "config error: healthCheck.timeoutMs: must be between 1 and 3600000 (got: -5)",
                "config error: healthCheck.expectedStatus: must be between 100 and 599 (got: 700)",
                "config error: healthCheck.rise: must be at least 1 (got: 0)",
                "config error: healthCheck.fall: must be at least 1 (got: 0)",
                "config error: outlierDetection.consecutiveFailures: must be at least 1 (got: 0)",
                "config error: outlierDetection.baseEjectionMs: must be greater than 0 (got: 0)",
                "config error: outlierDetection.maxEjectionPercent: must be between 0 and 100 (got: 101)",
                "config error: circuitBreaker.minimumCalls: must not exceed circuitBreaker.window (5), "
                        + "or the breaker could never decide (got: 6)",
                "config error: circuitBreaker.failureRateThreshold: must be a percentage between 0 and 100 (got: 150)",
                "config error: circuitBreaker.slowCallMs: must be greater than 0 (got: 0)",
                "config error: circuitBreaker.slowCallRateThreshold: must be a percentage between 0 and 100 (got: -1)",
                "config error: circuitBreaker.openMs: must be greater than 0 (got: 0)",
                "config error: circuitBreaker.halfOpenCalls: must be at least 1 (got: 0)",
                "config error: retries.maxRetries: must be at least 0 (got: -1)",
                "config error: timeouts.connectMs: must be greater than 0 (got: 0)",
                "config error: timeouts.readMs: must be greater than 0 (got: 0)",
                "config error: timeouts.idleMs: must be greater than 0 (got: 0)",
                "config error: timeouts.requestHeaderMs: must be greater than 0 (got: 0)",
                "config error: slowStartMs: must be at least 0 (got: -1)",
                "config error: stickySession.cookie: must be a cookie name (letters, digits and !#$%&'*+.^_`|~-) "
                        + "(got: bad cookie)",
                "config error: stickySession.ttlSeconds: must be greater than 0 (got: 0)",
                "config error: stickySession.secret: must be at least 16 characters (got: 5 characters)");
    }

    @Test
    void routesMustNameAnExistingPoolAndStartWithASlash() {
        assertThat(errors("""
                { "backends": [ { "id": "a", "url": "http://127.0.0.1:9001" } ],
                  "pools": { "api": { "backends": [ { "id": "b", "url": "http://127.0.0.1:9002" } ] } },
                  "routes": [ { "pathPrefix": "/api", "pool": "api" },
                              { "pathPrefix": "static", "pool": "default" },
                              { "pathPrefix": "/x", "pool": "apii" },
                              { "pathPrefix": "/api", "pool": "default" },
                              { "pool": "api" } ] }
                """)).containsExactly(
                "config error: routes[1].pathPrefix: must start with / and contain no spaces (got: static)",
                "config error: routes[2].pool: no such pool, one of default, api (got: apii)",
                "config error: routes[3].pathPrefix: duplicate prefix, already routed by routes[0].pathPrefix "
                        + "(got: /api)",
                "config error: routes[4].pathPrefix: required (got: missing)");
    }

    @Test
    void poolsCannotRedefineDefaultAndNeedValidNames() {
        assertThat(errorsWith("""
                "pools": { "default": { "demoBackends": [ { "id": "x", "port": 9102 } ] },
                           "bad name": { "demoBackends": [ { "id": "y", "port": 9103, "weight": 5000 } ] } }
                """)).containsExactly(
                "config error: pools.default: is reserved: the top-level strategy, backends and demoBackends form "
                        + "the pool named default (got: default)",
                "config error: pools.bad name: pool name must be 1-64 characters of A-Z a-z 0-9 . _ - "
                        + "(got: bad name)",
                "config error: pools.bad name.demoBackends[0].weight: must be between 0 and 1000 (got: 5000)");
    }

    @Test
    void aConfigWithoutAnyBackendIsRefused() {
        assertThat(errors("{}")).containsExactly("config error: backends: at least one backend or demo backend is "
                + "required (in backends, demoBackends or a pool) (got: [])");
        assertThat(errors("{ \"backends\": [], \"demoBackends\": [] }")).hasSize(1);
    }

    @Test
    void backendsInANamedPoolAloneAreEnough() {
        FulcrumConfig c = ConfigLoader.parse("""
                { "pools": { "api": { "backends": [ { "id": "b", "url": "http://127.0.0.1:9002" } ] } },
                  "routes": [ { "pathPrefix": "/api", "pool": "api" } ] }
                """);
        assertThat(c.defaultPool().size()).isZero();
        assertThat(c.pools().get("api").size()).isOne();
    }

    @Test
    void aNonLoopbackAdminHostNeedsAToken() {
        assertThat(errorsWith("\"admin\": { \"host\": \"0.0.0.0\" }"))
                .containsExactly("config error: admin.token: required when admin.host is not loopback (got: null)");
        assertThat(errorsWith("\"admin\": { \"host\": \"127.0.0.1\", \"token\": \"\" }"))
                .containsExactly("config error: admin.token: must not be empty (use null for no token) (got: \"\")");
        assertThat(ConfigLoader.parse("{ " + DEMO + ", \"admin\": { \"host\": \"0.0.0.0\", \"token\": \"s3cret\" } }")
                .admin().token()).isEqualTo("s3cret");
        assertThat(ConfigLoader.parse("{ " + DEMO + ", \"admin\": { \"host\": \"localhost\" } }").admin().host())
                .isEqualTo("localhost");
    }

    @Test
    void loopbackIsRecognisedWithoutANameLookup() {
        assertThat(List.of("127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]", "LOCALHOST"))
                .allMatch(ConfigValidator::isLoopback);
        assertThat(List.of("0.0.0.0", "10.0.0.1", "::", "example.com", "128.0.0.1"))
                .noneMatch(ConfigValidator::isLoopback);
    }

    @Test
    void theLocalCertificatesExtraNamesMustBeHostNamesOrAddressesAndNeedNoFilesOfTheirOwn(@TempDir Path dir)
            throws IOException {
        assertThat(ConfigLoader.parse("{" + DEMO + ", \"proxy\": { \"tls\": { \"enabled\": true, \"names\": "
                + "[\"app.localhost\", \"*.dev.test\", \"10.0.0.7\", \"fe80::1\"] } } }").proxy().tls().names())
                .containsExactly("app.localhost", "*.dev.test", "10.0.0.7", "fe80::1");
        assertThat(errorsWith("\"proxy\": { \"tls\": { \"names\": [\"ok.test\", \"bad name\", \"300.1.1.1\", "
                + "\"-x.test\", \"\"] } }")).containsExactly(
                "config error: proxy.tls.names[1]: must be a host name, *.name or IP address (got: bad name)",
                "config error: proxy.tls.names[2]: must be a host name, *.name or IP address (got: 300.1.1.1)",
                "config error: proxy.tls.names[3]: must be a host name, *.name or IP address (got: -x.test)",
                "config error: proxy.tls.names[4]: must be a host name, *.name or IP address (got: )");
        Path cert = Files.writeString(dir.resolve("c.pem"), "x");
        Path key = Files.writeString(dir.resolve("k.pem"), "x");
        assertThat(errorsWith("\"proxy\": { \"tls\": { \"certificate\": \"" + cert + "\", \"privateKey\": \"" + key
                + "\", \"names\": [\"a.test\"] } }")).containsExactly("config error: proxy.tls.names: not used with "
                + "proxy.tls.certificate: names are for the generated certificate (got: [a.test])");
    }

    @Test
    void tlsFilesMustExistAndBeGivenTogether(@TempDir Path dir) throws IOException {
        Path cert = Files.writeString(dir.resolve("cert.pem"), "-----BEGIN CERTIFICATE-----\n");
        Path missingKey = dir.resolve("key.pem");

        assertThat(errorsWith("\"proxy\": { \"tls\": { \"enabled\": true, \"certificate\": \"" + cert
                + "\", \"privateKey\": \"" + missingKey + "\" } }")).containsExactly(
                "config error: proxy.tls.privateKey: file does not exist: " + missingKey + " (got: " + missingKey + ")");
        assertThat(errorsWith("\"proxy\": { \"tls\": { \"certificate\": \"" + cert + "\" } }")).containsExactly(
                "config error: proxy.tls.privateKey: required when proxy.tls.certificate is set (got: null)");
        assertThat(errorsWith("\"proxy\": { \"tls\": { \"certificate\": \"" + dir + "\", \"privateKey\": \"" + cert
                + "\" } }")).containsExactly(
                "config error: proxy.tls.certificate: is not a regular file: " + dir + " (got: " + dir + ")");

        Files.writeString(missingKey, "-----BEGIN PRIVATE KEY-----\n");
        FulcrumConfig ok = ConfigLoader.parse("{ " + DEMO + ", \"proxy\": { \"tls\": { \"enabled\": true, "
                + "\"certificate\": \"" + cert + "\", \"privateKey\": \"" + missingKey + "\" } } }");
        assertThat(ok.proxy().tls().certificate()).isEqualTo(cert.toString());
    }

    @Test
    void anAccessLogInAMissingDirectoryIsRefused(@TempDir Path dir) {
        Path log = dir.resolve("no-such-dir").resolve("access.log");
        assertThat(errorsWith("\"proxy\": { \"accessLog\": \"" + log + "\" }")).containsExactly(
                "config error: proxy.accessLog: directory does not exist: " + log.getParent() + " (got: " + log + ")");
        assertThat(ConfigLoader.parse("{ " + DEMO + ", \"proxy\": { \"accessLog\": \"" + dir.resolve("a.log")
                + "\" } }").proxy().accessLog()).endsWith("a.log");
    }

    @Test
    void listenersOnTheSamePortCollide() {
        assertThat(errors("""
                { "admin": { "port": 8080 },
                  "demoBackends": [ { "id": "d1", "port": 9101 }, { "id": "d2", "port": 9101 },
                                    { "id": "d3", "port": 0 }, { "id": "d4", "port": 0 } ] }
                """)).containsExactly(
                "config error: admin.port: port already used by proxy.port (got: 8080)",
                "config error: demoBackends[1].port: port already used by demoBackends[0].port (got: 9101)");
        FulcrumConfig apart = ConfigLoader.parse("{ " + DEMO + ", \"proxy\": { \"host\": \"127.0.0.2\", "
                + "\"port\": 9000 }, \"admin\": { \"host\": \"127.0.0.1\", \"port\": 9000 } }");
        assertThat(apart.admin().port()).isEqualTo(9000);
    }

    @Test
    void aBackendAtTheProxysOwnAddressWouldLoop() {
        assertThat(errors("{ \"backends\": [ { \"id\": \"me\", \"url\": \"http://localhost:8080\" } ] }"))
                .containsExactly("config error: backends[0].url: points at the proxy itself (proxy.port 8080), "
                        + "requests would loop (got: http://localhost:8080)");
        assertThat(ConfigLoader.parse("{ \"backends\": [ { \"id\": \"other\", \"url\": \"http://10.0.0.5:8080\" } ] }")
                .backends()).hasSize(1);
    }

    @Test
    void manyProblemsInOneFileAreAllReportedInOneGo() {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse("""
                { "proxy": { "port": "abc" },
                  "healthCheck": { "intervall": 5000 },
                  "strategy": { "type": "nope" },
                  "backends": [ { "id": "a", "url": "http://127.0.0.1:9001", "weight": -3 },
                                { "id": "a", "url": "ftp://x:1" } ],
                  "admin": { "host": "0.0.0.0" },
                  "routes": [ { "pathPrefix": "/api", "pool": "api" } ] }
                """));

        assertThat(e.problems()).extracting(ConfigProblem::path).containsExactly(
                "proxy.port", "healthCheck.intervall", "admin.token", "strategy.type", "backends[0].weight",
                "backends[1].url", "routes[0].pool", "backends[1].id");
        assertThat(e.getMessage().lines()).hasSize(8).allMatch(l -> l.startsWith("config error: "));
    }

    @Test
    void aStrategyBodyIsCheckedOnItsOwnForTheAdminApi() {
        StrategySpecAssert.assertParses("{ \"type\": \"consistent-hash\", \"balanceFactor\": 1.25 }", "consistent-hash");
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parseStrategy(
                ConfigLoader.tree("{ \"type\": \"maglev\", \"tableSize\": 10, \"virtualnodes\": 3 }"), ""));
        assertThat(e.problems()).extracting(ConfigProblem::describe).containsExactly(
                "virtualnodes: unknown field, did you mean virtualNodes? (got: 3)",
                "tableSize: must be prime (e.g. 65537) (got: 10)");
        assertThatThrownBy(() -> ConfigLoader.parseStrategy(ConfigLoader.tree("[]"), "strategy"))
                .isInstanceOf(ConfigException.class).hasMessage("config error: strategy: must be an object (got: [])");
    }

    /** Small helper kept apart so the strategy test reads as a sentence. */
    private static final class StrategySpecAssert {
        static void assertParses(String json, String type) {
            assertThat(ConfigLoader.parseStrategy(ConfigLoader.tree(json), "strategy").type()).isEqualTo(type);
            assertThat(ConfigLoader.parseStrategy(ConfigLoader.tree(json), "strategy").integer("virtualNodes")).isEqualTo(160);
        }
    }
}
