package dev.fulcrum.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrafficRecorderTest {
    @TempDir
    Path dir;

    @Test
    void aTraceRoundTripsThroughTheJsonLinesFile() throws IOException {
        List<TrafficRequest> trace = List.of(new TrafficRequest(0, "GET", "/", "k0"),
                new TrafficRequest(5_000, "POST", "/orders", "k17"),
                new TrafficRequest(5_000, "GET", "/a b", "käse \"quoted\""),
                new TrafficRequest(3_600_000_000L, "GET", "/", "k3"));
        Path file = dir.resolve("sub/trace.jsonl");
        TrafficRecorder.record(file, trace);

        assertThat(TrafficRecorder.read(file)).isEqualTo(trace);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).hasSize(4);
        assertThat(lines.get(1)).isEqualTo("{\"offsetMicros\":5000,\"method\":\"POST\",\"path\":\"/orders\",\"key\":\"k17\"}");
    }

    @Test
    void aRecorderAppendsAsRequestsArriveAndBlankLinesAreSkippedOnRead() throws IOException {
        Path file = dir.resolve("live.jsonl");
        try (TrafficRecorder r = TrafficRecorder.open(file)) {
            r.accept(new TrafficRequest(1, "GET", "/", "k1"));
            r.accept(new TrafficRequest(2, "GET", "/", "k2"));
            assertThat(r.recorded()).isEqualTo(2);
        }
        Files.writeString(file, Files.readString(file) + "\n   \n", StandardCharsets.UTF_8);
        assertThat(TrafficRecorder.read(file)).extracting(TrafficRequest::key).containsExactly("k1", "k2");
    }

    @Test
    void aBadLineIsReportedWithItsLineNumberFieldAndValue() throws IOException {
        Path file = dir.resolve("bad.jsonl");
        List<String> lines = new ArrayList<>();
        lines.add(TrafficRecorder.toLine(new TrafficRequest(0, "GET", "/", "k0")));
        lines.add("{\"offsetMicros\":10,\"method\":\"PUT\",\"path\":\"/\",\"key\":\"k0\"}");
        Files.write(file, lines, StandardCharsets.UTF_8);
        assertThatThrownBy(() -> TrafficRecorder.read(file)).isInstanceOf(IOException.class)
                .hasMessage("bad.jsonl line 2: method: must be GET or POST (got: PUT)");

        assertThatThrownBy(() -> TrafficRecorder.parseLine("{\"offsetMicros\":1.5,\"method\":\"GET\",\"path\":\"/\",\"key\":\"k\"}"))
                .hasMessage("offsetMicros: must be a whole number of microseconds (got: 1.5)");
        assertThatThrownBy(() -> TrafficRecorder.parseLine("{\"offsetMicros\":1,\"method\":\"GET\",\"path\":\"/\",\"key\":\"k\",\"x\":1}"))
                .hasMessage("x: unknown field (got: 1)");
        assertThatThrownBy(() -> TrafficRecorder.parseLine("[1]")).hasMessage("not a JSON object (got: [1])");
        assertThatThrownBy(() -> TrafficRecorder.parseLine("{\"offsetMicros\":1,\"method\":\"GET\",\"path\":\"/\"}"))
                .hasMessage("key: must be a string (got: null)");
    }
}
