package dev.fulcrum.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The readers of docs/REFERENCE.md §6: each format, detection, bad lines as FILE:LINE and the 1% rule. */
@DisplayName("Recordings: reading HAR, nginx and Fulcrum's JSON log")
class RecordingsTest {
    @TempDir
    Path dir;

    static long micros(String instant) {
        Instant t = Instant.parse(instant);
        return t.getEpochSecond() * 1_000_000L + t.getNano() / 1000;
    }

    Path write(String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    static List<RecordedRequest> all(Recording r) {
        List<RecordedRequest> out = new ArrayList<>();
        r.forEachRemaining(out::add);
        return out;
    }

    @Test
    void aCombinedLineGivesTheRequestItsClientAndItsHeaders() throws IOException {
        Path log = write("access.log", "10.0.0.7 - - [05/Dec/2026:07:00:01 +0000] \"GET /api/x?id=3 HTTP/1.1\" 200 512"
                + " \"https://example.com/\" \"curl/8.5\"\n");
        try (Recording r = Recordings.open(log, null, null)) {
            assertThat(r.format()).isEqualTo(RecordingFormat.NGINX);
            List<RecordedRequest> rs = all(r);
            assertThat(rs).hasSize(1);
            RecordedRequest x = rs.get(0);
            // the only line of its second: taken to have ended in the middle of it
            assertThat(x.atMicros()).isEqualTo(micros("2026-12-05T07:00:01.500Z"));
            assertThat(x.method()).isEqualTo("GET");
            assertThat(x.target()).isEqualTo("/api/x?id=3");
            assertThat(x.status()).isEqualTo(200);
            assertThat(x.clientIp()).isEqualTo("10.0.0.7");
            assertThat(x.serviceMs()).isNaN();
            assertThat(x.upstream()).isNull();
            assertThat(x.line()).isEqualTo(1);
            assertThat(x.headers()).containsExactly(Map.entry("Referer", "https://example.com/"),
                    Map.entry("User-Agent", "curl/8.5"));
            assertThat(r.entries()).isEqualTo(1);
            assertThat(r.bad()).isZero();
        }
    }

    @Test
    void aCustomLogFormatReadsRequestTimeUpstreamTimeAndAddressTakingTheLastAttempt() throws IOException {
        String format = "$remote_addr [$time_local] \"$request\" $status rt=$request_time"
                + " urt=\"$upstream_response_time\" ua=\"$upstream_addr\" h=$host c=\"$http_cookie\"";
        Path log = write("custom.log", String.join("\n",
                "10.0.0.1 [05/Dec/2026:07:00:02 +0100] \"POST /cart HTTP/1.1\" 201 rt=0.250"
                        + " urt=\"0.010, 0.200\" ua=\"10.1.0.1:80, 10.1.0.2:80\" h=shop.test c=\"sid=abc\"",
                "10.0.0.2 [05/Dec/2026:07:00:02 +0100] \"GET / HTTP/1.1\" 304 rt=0.004"
                        + " urt=\"-\" ua=\"-\" h=- c=\"-\"",
                ""));
        try (Recording r = Recordings.open(log, "nginx", format)) {
            List<RecordedRequest> rs = all(r);
            assertThat(rs).hasSize(2);
            RecordedRequest a = rs.get(0);
            // logged at its end, in second 06:00:02 UTC, the first of two lines there: ended at 06:00:02.250; it
            // took 250 ms, so it arrived at 06:00:02.000
            assertThat(a.atMicros()).isEqualTo(micros("2026-12-05T06:00:02Z"));
            assertThat(a.serviceMs()).isEqualTo(200.0);
            assertThat(a.upstream()).isEqualTo("10.1.0.2:80");
            assertThat(a.headers()).containsExactly(Map.entry("Host", "shop.test"), Map.entry("Cookie", "sid=abc"));
            RecordedRequest b = rs.get(1);
            // no upstream time: the request time is the service time
            assertThat(b.serviceMs()).isEqualTo(4.0);
            assertThat(b.upstream()).isNull();
            assertThat(b.headers()).isEmpty();
            // the second of two: ended at 06:00:02.750, took 4 ms
            assertThat(b.atMicros()).isEqualTo(micros("2026-12-05T06:00:02.746Z"));
        }
    }

    @Test
    void msecAndTimeIso8601AreTimesToo() throws IOException {
        Path log = write("msec.log", "1764918001.125 GET /a 200\n");
        try (Recording r = Recordings.open(log, null, "$msec $request_method $request_uri $status")) {
            RecordedRequest x = all(r).get(0);
            assertThat(x.atMicros()).isEqualTo(1_764_918_001_125_000L);
            assertThat(x.method()).isEqualTo("GET");
            assertThat(x.target()).isEqualTo("/a");
        }
        Path iso = write("iso.log", "2026-12-05T07:00:01+00:00 \"GET http://h.test/b?c=1 HTTP/2.0\"\n");
        try (Recording r = Recordings.open(iso, null, "$time_iso8601 \"$request\"")) {
            RecordedRequest x = all(r).get(0);
            assertThat(x.atMicros()).isEqualTo(micros("2026-12-05T07:00:01.500Z"));
            assertThat(x.target()).isEqualTo("/b?c=1");
        }
    }

    @Test
    void aBadLineIsReportedAsFileColonLineAndSkipped() throws IOException {
        String good = "10.0.0.7 - - [05/Dec/2026:07:00:01 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"-\"";
        Path log = write("bad.log", String.join("\n", good,
                "10.0.0.7 - - [05/Dec/2026:07:00:01 +0000] \"\\x16\\x03\\x01\" 400 0 \"-\" \"-\"",
                "",
                "garbage",
                "10.0.0.7 - - [35/Foo/2026:07:00:01 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"-\"",
                good.replace(" 200 ", " 2x0 "),
                good, ""));
        try (Recording r = Recordings.open(log, null, null)) {
            assertThat(all(r)).extracting(RecordedRequest::line).containsExactly(1L, 7L);
            assertThat(r.entries()).isEqualTo(6);
            assertThat(r.bad()).isEqualTo(4);
            assertThat(r.problems()).containsExactly(
                    log + ":2: request line without a target (got: \\x16\\x03\\x01)",
                    log + ":4: does not match the log format: expected \" - \" after $remote_addr (from column 1)",
                    log + ":5: $time_local is not like 05/Dec/2026:07:00:01 +0000 (got: 35/Foo/2026:07:00:01 +0000)",
                    log + ":6: $status is no status code (got: 2x0)");
            assertThat(r.tooManyBad()).isTrue();
            assertThat(r.badSummary()).isEqualTo(log + ": 4 of 6 lines could not be read (66.7%, more than 1%)");
        }
    }

    @Test
    void onePercentOfBadLinesIsAcceptedAndMoreIsNot() throws IOException {
        String good = "10.0.0.7 - - [05/Dec/2026:07:00:01 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"-\"\n";
        Path one = write("one.log", good.repeat(99) + "oops\n");
        try (Recording r = Recordings.open(one, null, null)) {
            assertThat(all(r)).hasSize(99);
            assertThat(r.tooManyBad()).isFalse();
        }
        Path two = write("two.log", good.repeat(98) + "oops\noops\n");
        try (Recording r = Recordings.open(two, null, null)) {
            all(r);
            assertThat(r.tooManyBad()).isTrue();
        }
    }

    @Test
    void aLogFormatThatCannotBeReadIsRefusedBeforeAnyLine() {
        assertThatThrownBy(() -> NginxLogFormat.compile("$status$body_bytes_sent [$time_local] \"$request\""))
                .hasMessage("$status and $body_bytes_sent need text between them");
        assertThatThrownBy(() -> NginxLogFormat.compile("$remote_addr \"$request\""))
                .hasMessage("needs a time: $time_local, $time_iso8601 or $msec");
        assertThatThrownBy(() -> NginxLogFormat.compile("[$time_local] $status"))
                .hasMessage("needs the request: $request, or $request_method and $request_uri");
        assertThatThrownBy(() -> Recordings.open(dir.resolve("x"), "csv", null))
                .hasMessage("--format: one of har, nginx, fulcrum-json (got: csv)");
        assertThat(NginxLogFormat.compile("main").text()).endsWith("\"$http_x_forwarded_for\"");
    }

    static final String HAR = """
            {
              "log": {
                "version": "1.2",
                "creator": {"name": "WebInspector", "version": "537.36"},
                "pages": [],
                "entries": [
                  {
                    "startedDateTime": "2026-12-05T07:00:01.500+01:00",
                    "time": 42.1,
                    "request": {"method": "POST", "url": "https://shop.test/cart?x=1#frag", "httpVersion": "h2",
                      "headers": [{"name": ":authority", "value": "shop.test"}, {"name": "cookie", "value": "sid=9"}],
                      "postData": {"mimeType": "application/json", "text": "{\\"a\\":1}"}},
                    "response": {"status": 201},
                    "serverIPAddress": "93.184.216.34",
                    "timings": {"blocked": 1, "send": 0.1, "wait": 40.5, "receive": 1.5}
                  },
                  {
                    "startedDateTime": "2026-12-05T06:00:02Z",
                    "request": {"method": "GET"},
                    "response": {"status": 200},
                    "timings": {"wait": 3}
                  },
                  {
                    "startedDateTime": "2026-12-05T06:00:03Z",
                    "request": {"method": "GET", "url": "http://127.0.0.1:8080/a", "headers": []},
                    "response": {"status": 200},
                    "timings": {"wait": -1},
                    "serverIPAddress": "127.0.0.1",
                    "_backend": "demo-b"
                  }
                ]
              },
              "trailer": {"ignored": [1, 2, 3]}
            }
            """;

    @Test
    void aHarFileStreamsItsEntriesWithTimingsBodiesAndABadEntryByItsLine() throws IOException {
        Path har = write("chrome.har", HAR);
        try (Recording r = Recordings.open(har, null, null)) {
            assertThat(r.format()).isEqualTo(RecordingFormat.HAR);
            List<RecordedRequest> rs = all(r);
            assertThat(rs).hasSize(2);
            RecordedRequest a = rs.get(0);
            assertThat(a.atMicros()).isEqualTo(micros("2026-12-05T06:00:01.500Z"));
            assertThat(a.method()).isEqualTo("POST");
            assertThat(a.target()).isEqualTo("/cart?x=1");
            assertThat(a.headers()).containsExactly(Map.entry("cookie", "sid=9"));
            assertThat(new String(a.body(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");
            assertThat(a.serviceMs()).isEqualTo(40.5);
            assertThat(a.upstream()).isEqualTo("93.184.216.34");
            assertThat(a.status()).isEqualTo(201);
            assertThat(a.line()).isEqualTo(1);
            RecordedRequest c = rs.get(1);
            assertThat(c.serviceMs()).isNaN();
            assertThat(c.upstream()).isEqualTo("demo-b");
            assertThat(c.line()).isEqualTo(3);
            assertThat(r.problems()).containsExactly(har + ":17: entry 2: request.url: required");
        }
    }

    @Test
    void aHarCutShortStopsWithItsLineAndKeepsWhatCameBefore() throws IOException {
        Path har = write("cut.har", HAR.substring(0, HAR.indexOf("\"_backend\"")));
        try (Recording r = Recordings.open(har, null, null)) {
            assertThat(all(r)).hasSize(1);
            assertThat(r.problems()).hasSize(2);
            assertThat(r.problems().get(1)).startsWith(har + ":").contains("invalid JSON, the rest of the file is not read");
        }
    }

    @Test
    void fulcrumsAccessLogArrivesAtItsTimeLessItsLatency() throws IOException {
        Path log = write("fulcrum.log", String.join("\n",
                "{\"time\":\"2026-12-05T07:00:01.250Z\",\"method\":\"GET\",\"path\":\"/k/7\",\"status\":200,"
                        + "\"backend\":\"demo-a\",\"attempts\":1,\"latencyMs\":12.5,\"bytes\":17}",
                "{\"time\":\"2026-12-05T07:00:01.300Z\",\"method\":\"GET\",\"path\":\"/x\",\"status\":503,"
                        + "\"backend\":null,\"attempts\":0,\"latencyMs\":0.042,\"bytes\":60}",
                "{\"time\":\"2026-12-05T07:00:01.300Z\",\"method\":\"GET\",\"path\":\"/x\",\"status\":\"200\"}",
                "{\"time\":\"yesterday\",\"method\":\"GET\",\"path\":\"/x\",\"status\":200}",
                "{\"time\":", ""));
        try (Recording r = Recordings.open(log, null, null)) {
            assertThat(r.format()).isEqualTo(RecordingFormat.FULCRUM_JSON);
            List<RecordedRequest> rs = all(r);
            assertThat(rs).hasSize(2);
            assertThat(rs.get(0).atMicros()).isEqualTo(micros("2026-12-05T07:00:01.237500Z"));
            assertThat(rs.get(0).serviceMs()).isEqualTo(12.5);
            assertThat(rs.get(0).upstream()).isEqualTo("demo-a");
            assertThat(rs.get(0).target()).isEqualTo("/k/7");
            assertThat(rs.get(1).upstream()).isNull();
            assertThat(rs.get(1).status()).isEqualTo(503);
            assertThat(r.problems()).hasSize(3);
            assertThat(r.problems().get(0)).isEqualTo(log + ":3: status: must be an integer (got: 200)");
            assertThat(r.problems().get(1)).isEqualTo(log
                    + ":4: time: not an ISO-8601 instant (got: yesterday)");
            assertThat(r.problems().get(2)).startsWith(log + ":5: not a JSON object (");
        }
    }

    @Test
    void theFormatIsToldByContentAndGzipIsRead() throws IOException {
        assertThat(RecordingFormat.detect(write("a.har", HAR))).isEqualTo(RecordingFormat.HAR);
        assertThat(RecordingFormat.detect(write("one-line.har", "{\"log\":{\"entries\":[]}}")))
                .isEqualTo(RecordingFormat.HAR);
        assertThat(RecordingFormat.detect(write("f.log", "\n{\"time\":\"2026-12-05T07:00:01.250Z\",\"method\":\"GET\","
                + "\"path\":\"/\",\"status\":200}\n"))).isEqualTo(RecordingFormat.FULCRUM_JSON);
        assertThat(RecordingFormat.detect(write("n.log", "10.0.0.1 - - [05/Dec/2026:07:00:01 +0000] \"GET / HTTP/1.1\""
                + " 200 1 \"-\" \"-\"\n"))).isEqualTo(RecordingFormat.NGINX);
        assertThat(RecordingFormat.detect(write("empty.log", ""))).isEqualTo(RecordingFormat.NGINX);
        Path gz = dir.resolve("access.log.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(("10.0.0.1 - - [05/Dec/2026:07:00:01 +0000] \"GET /gz HTTP/1.1\" 200 1 \"-\" \"-\"\n")
                    .repeat(3).getBytes(StandardCharsets.UTF_8));
        }
        try (Recording r = Recordings.open(gz, null, null)) {
            assertThat(all(r)).extracting(RecordedRequest::target).containsExactly("/gz", "/gz", "/gz");
            assertThat(r.fraction()).isEqualTo(1.0);
        }
    }

    static RecordedRequest at(long micros, long line) {
        return new RecordedRequest(micros, "GET", "/", List.of(), null, 1, null, 200, null, line);
    }

    @Test
    void arrivalOrderSortsWithinItsWindowAndCountsWhatCameTooLate() {
        List<RecordedRequest> file = List.of(at(1_000, 1), at(3_000, 2), at(2_000, 3), at(2_000, 4),
                at(20_000, 5), at(500, 6), at(21_000, 7));
        ArrivalOrder wide = new ArrivalOrder(file.iterator(), 30_000);
        List<Long> all = new ArrayList<>();
        wide.forEachRemaining(r -> all.add(r.line()));
        assertThat(all).containsExactly(6L, 1L, 3L, 4L, 2L, 5L, 7L);
        assertThat(wide.late()).isZero();
        // with 5 ms, 3 and 4 (which arrived before 2) still come out before it, in file order; 6 arrived 19.5 ms
        // before 5, read before it: it comes out at once, late
        ArrivalOrder tight = new ArrivalOrder(file.iterator(), 5_000);
        List<Long> tl = new ArrayList<>();
        tight.forEachRemaining(r -> tl.add(r.line()));
        assertThat(tl).containsExactly(1L, 3L, 4L, 2L, 6L, 5L, 7L);
        assertThat(tight.late()).isEqualTo(1);
    }
}
