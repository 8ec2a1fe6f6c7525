package dev.fulcrum.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * {@code labels} on backends and demo backends (docs/REFERENCE.md §2.1): bound into the records and the engine's specs,
 * written back and read again unchanged, and every wrong label refused by its JSON path and value, all of them at once.
 */
class BackendLabelsConfigTest {
    private static final String URL = "\"url\": \"http://127.0.0.1:9001\"";

    private static List<String> errors(String json) {
        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parse(json));
        assertThat(e).as("config should be refused: %s", json).isNotNull();
        return e.lines();
    }

    /** A config of one backend {@code a} whose labels are {@code labels} (JSON). */
    private static String backendWith(String labels) {
        return "{\"backends\": [{\"id\": \"a\", " + URL + ", \"labels\": " + labels + "}]}";
    }

    /** {@code n} labels {@code l0..l(n-1)}, as a JSON object. */
    private static String manyLabels(int n) {
        return IntStream.range(0, n).mapToObj(i -> "\"l" + i + "\": \"v\"")
                .collect(Collectors.joining(", ", "{", "}"));
    }

    @Test
    void labelsAreBoundSortedAndReachTheEnginesSpec() {
        FulcrumConfig c = ConfigLoader.parse(backendWith("{\"zone\": \"b\", \"cost\": \"0.2\", \"tier\": \"spot\"}"));

        BackendConfig a = c.backends().get(0);
        assertThat(a.labels()).containsExactly(Map.entry("cost", "0.2"), Map.entry("tier", "spot"),
                Map.entry("zone", "b"));
        assertThat(a.toSpec().labels()).isEqualTo(a.labels());
        assertThat(c.defaultPool().backendSpecs().get(0).labels()).isEqualTo(a.labels());
    }

    @Test
    void aBackendWithoutLabelsHasNoneAndAnOldConfigStaysValid() {
        FulcrumConfig c = ConfigLoader.parse("{\"backends\": [{\"id\": \"a\", " + URL + "}],"
                + " \"demoBackends\": [{\"id\": \"d\", \"port\": 0}]}");

        assertThat(c.backends().get(0).labels()).isEmpty();
        assertThat(c.demoBackends().get(0).labels()).isEmpty();
        assertThat(c.backends().get(0).toSpec().labels()).isEmpty();
    }

    @Test
    void demoBackendsAndNamedPoolsTakeLabelsToo() {
        FulcrumConfig c = ConfigLoader.parse("""
                {"demoBackends": [{"id": "d", "port": 0, "labels": {"zone": "a"}}],
                 "pools": {"api": {"backends": [{"id": "x", "url": "http://127.0.0.1:9010",
                                                "labels": {"tier": "spot"}}]}}}
                """);

        assertThat(c.demoBackends().get(0).labels()).isEqualTo(Map.of("zone", "a"));
        assertThat(c.demoBackends().get(0).toSpec(9101).labels()).isEqualTo(Map.of("zone", "a"));
        assertThat(c.demoBackends().get(0).withPort(9102).labels()).isEqualTo(Map.of("zone", "a"));
        assertThat(c.pools().get("api").backends().get(0).labels()).isEqualTo(Map.of("tier", "spot"));
    }

    @Test
    void theBoundsAreAcceptedJustInside() {
        String name32 = "n" + "x".repeat(31);
        FulcrumConfig c = ConfigLoader.parse(backendWith(manyLabels(15).replace("}", ", \"" + name32 + "\": \""
                + "v".repeat(64) + "\"}")));

        assertThat(c.backends().get(0).labels()).hasSize(16).containsEntry(name32, "v".repeat(64));
        assertThat(ConfigLoader.parse(backendWith("{\"empty\": \"\", \"a_1\": \"x\"}")).backends().get(0).labels())
                .containsEntry("empty", "");
    }

    @Test
    void seventeenLabelsAreTooMany() {
        String three = "{\"backends\": [{\"id\": \"a\", " + URL + "}, {\"id\": \"b\", \"url\": \"http://127.0.0.1:9002\"},"
                + " {\"id\": \"c\", \"url\": \"http://127.0.0.1:9003\", \"labels\": " + manyLabels(17) + "}]}";

        assertThat(errors(three)).containsExactly("config error: backends[2].labels: at most 16 labels (got: 17)");
    }

    @Test
    void aNameOutsideThePatternIsNamedByItself() {
        assertThat(errors(backendWith("{\"Zone\": \"b\"}")))
                .containsExactly("config error: backends[0].labels.Zone: must match [a-z][a-z0-9_]{0,31} (got: Zone)");
        assertThat(errors(backendWith("{\"1zone\": \"b\"}")))
                .containsExactly("config error: backends[0].labels.1zone: must match [a-z][a-z0-9_]{0,31} (got: 1zone)");
        assertThat(errors(backendWith("{\"zone-a\": \"b\"}")))
                .containsExactly("config error: backends[0].labels.zone-a: must match [a-z][a-z0-9_]{0,31} (got: zone-a)");
        assertThat(errors(backendWith("{\"\": \"b\"}")))
                .containsExactly("config error: backends[0].labels.: must match [a-z][a-z0-9_]{0,31} (got: )");
        String name33 = "n" + "x".repeat(32);
        assertThat(errors(backendWith("{\"" + name33 + "\": \"b\"}"))).containsExactly("config error: backends[0].labels."
                + name33 + ": must match [a-z][a-z0-9_]{0,31} (got: " + name33 + ")");
    }

    @Test
    void aValueLongerThanSixtyFourCharactersIsRefused() {
        String v65 = "v".repeat(65);

        assertThat(errors(backendWith("{\"cost\": \"" + v65 + "\"}"))).containsExactly(
                "config error: backends[0].labels.cost: must be a string of at most 64 characters (got: " + v65 + ")");
    }

    @Test
    void aNumberIsRefusedNotConvertedAsEveryWrongTypeIs() {
        assertThat(errors(backendWith("{\"cost\": 0.2}")))
                .containsExactly("config error: backends[0].labels.cost: must be a string (got: 0.2)");
        assertThat(errors(backendWith("{\"spot\": true}")))
                .containsExactly("config error: backends[0].labels.spot: must be a string (got: true)");
        assertThat(errors(backendWith("{\"zone\": null}")))
                .containsExactly("config error: backends[0].labels.zone: must be a string (got: null)");
        assertThat(errors(backendWith("{\"zone\": {\"a\": \"b\"}}")))
                .containsExactly("config error: backends[0].labels.zone: must be a string (got: {\"a\":\"b\"})");
    }

    @Test
    void labelsMustBeAnObject() {
        assertThat(errors(backendWith("[\"zone=b\"]")))
                .containsExactly("config error: backends[0].labels: must be an object (got: [\"zone=b\"])");
        assertThat(errors(backendWith("\"zone=b\"")))
                .containsExactly("config error: backends[0].labels: must be an object (got: \"zone=b\")");
    }

    @Test
    void everyWrongLabelIsReportedAtOnceWithTheOtherProblems() {
        assertThat(errors("""
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001", "weight": -3,
                               "labels": {"Zone": "b", "cost": 0.2, "ok": "fine"}}],
                 "demoBackends": [{"id": "d", "port": 0, "labels": {"tier": "%s"}}],
                 "pools": {"api": {"backends": [{"id": "x", "url": "http://127.0.0.1:9010",
                                                "labels": {"BAD": "x"}}]}}}
                """.formatted("t".repeat(65)))).containsExactlyInAnyOrder(
                "config error: backends[0].labels.cost: must be a string (got: 0.2)",
                "config error: backends[0].weight: must be between 0 and 1000 (got: -3)",
                "config error: backends[0].labels.Zone: must match [a-z][a-z0-9_]{0,31} (got: Zone)",
                "config error: demoBackends[0].labels.tier: must be a string of at most 64 characters (got: "
                        + "t".repeat(65) + ")",
                "config error: pools.api.backends[0].labels.BAD: must match [a-z][a-z0-9_]{0,31} (got: BAD)");
    }

    @Test
    void aTypoOfLabelsNamesIt() {
        assertThat(errors("{\"backends\": [{\"id\": \"a\", " + URL + ", \"label\": {\"zone\": \"b\"}}]}"))
                .containsExactly("config error: backends[0].label: unknown field, did you mean labels? "
                        + "(got: {\"zone\":\"b\"})");
    }

    @Test
    void theWriterWritesLabelsAndTheConfigReadsBackEqual() {
        FulcrumConfig c = ConfigLoader.parse("""
                {"backends": [{"id": "a", "url": "http://127.0.0.1:9001", "labels": {"zone": "b", "cost": "0.2"}},
                              {"id": "b", "url": "http://127.0.0.1:9002"}],
                 "demoBackends": [{"id": "d", "port": 0, "labels": {"tier": "spot"}}]}
                """);

        String written = ConfigWriter.toJson(c);

        assertThat(written).contains("\"labels\": {\n      \"cost\": \"0.2\",\n      \"zone\": \"b\"\n    }")
                .contains("\"labels\": { }");
        assertThat(ConfigLoader.parse(written)).isEqualTo(c);
        assertThat(ConfigLoader.parse(written).demoBackends().get(0).labels()).isEqualTo(Map.of("tier", "spot"));
    }

    @Test
    void aDiscoveryFileTakesLabelsByTheSameRules() {
        List<BackendConfig> bs = ConfigLoader.parseBackends("""
                [{"id": "a", "url": "http://10.0.0.5:8080", "labels": {"zone": "b"}},
                 {"id": "b", "url": "http://10.0.0.6:8080"}]
                """, "backends.json");
        assertThat(bs.get(0).toSpec().labels()).isEqualTo(Map.of("zone", "b"));
        assertThat(bs.get(1).toSpec().labels()).isEmpty();

        ConfigException e = catchThrowableOfType(ConfigException.class, () -> ConfigLoader.parseBackends(
                "[{\"id\": \"a\", \"url\": \"http://10.0.0.5:8080\", \"labels\": {\"Zone\": \"b\", \"cost\": 0.2}}]",
                "backends.json"));
        assertThat(e.lines()).containsExactlyInAnyOrder(
                "config error: backends.json[0].labels.cost: must be a string (got: 0.2)",
                "config error: backends.json[0].labels.Zone: must match [a-z][a-z0-9_]{0,31} (got: Zone)");
    }
}
