package dev.fulcrum.ui.requests;

import static dev.fulcrum.ui.requests.Samples.ok;
import static dev.fulcrum.ui.requests.Samples.request;
import static dev.fulcrum.ui.requests.Samples.success;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.admin.Har;
import dev.fulcrum.replay.RecordedRequest;
import dev.fulcrum.replay.Recording;
import dev.fulcrum.replay.RecordingFormat;
import dev.fulcrum.replay.Recordings;
import dev.fulcrum.requests.RequestSample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the Requests tab exports as HAR is a recording --compare reads back (docs/REFERENCE.md §6). */
class HarRecordingTest {
    @TempDir
    Path dir;

    @Test
    void fulcrumsOwnHarExportReadsBackAsTheRequestsItRecorded() throws Exception {
        List<RequestSample> newestFirst = List.of(
                request("0:2", 1_764_918_002_250L, "default", "/cart", 201, "demo-b", List.of(success("demo-b"))),
                ok("0:1", 1_764_918_001_000L, "demo-a"));
        Path file = dir.resolve("fulcrum.har");
        Files.writeString(file, Har.text(newestFirst));

        List<RecordedRequest> read = new ArrayList<>();
        try (Recording r = Recordings.open(file, null, null)) {
            assertThat(r.format()).isEqualTo(RecordingFormat.HAR);
            r.forEachRemaining(read::add);
            assertThat(r.bad()).isZero();
        }
        assertThat(read).extracting(RecordedRequest::target).containsExactly("/p/0:1", "/cart");
        assertThat(read).extracting(RecordedRequest::upstream).containsExactly("demo-a", "demo-b");
        assertThat(read).extracting(RecordedRequest::atMicros)
                .containsExactly(1_764_918_001_000_000L, 1_764_918_002_250_000L);
        assertThat(read).extracting(RecordedRequest::serviceMs).containsExactly(3.5, 3.5);
        assertThat(read.get(1).status()).isEqualTo(201);
        assertThat(read.get(1).headers()).contains(Map.entry("Host", "localhost:8080"));
    }
}
