package dev.fulcrum.testkit;

import java.time.Instant;

/** HAR 1.2 recordings for the tests of the live replay, written as browsers export them. */
public final class HarFiles {
    private HarFiles() {
    }

    /**
     * {@code n} requests {@code gapMs} apart to {@code /items/I?page=I%3}, every fourth a POST with the body
     * {@code {"n":I}}, each with an {@code x-user: uI} header, a bearer token and a cookie (which a replay leaves out),
     * and HTTP/2's {@code :authority}.
     */
    public static String har(int n, long gapMs) {
        StringBuilder entries = new StringBuilder();
        Instant t0 = Instant.parse("2026-12-05T07:00:00Z");
        for (int i = 0; i < n; i++) {
            boolean post = i % 4 == 0;
            entries.append(i == 0 ? "" : ",\n").append("""
                    {"startedDateTime": "%s", "time": 3,
                     "request": {"method": "%s", "url": "https://shop.test/items/%d?page=%d", "httpVersion": "h2",
                       "headers": [{"name": ":authority", "value": "shop.test"}, {"name": "x-user", "value": "u%d"},
                                   {"name": "authorization", "value": "Bearer secret"},
                                   {"name": "cookie", "value": "sid=%d"}]%s},
                     "response": {"status": 200}, "timings": {"wait": 2}}""".formatted(
                    t0.plusMillis(gapMs * i), post ? "POST" : "GET", i, i % 3, i, i,
                    post ? ", \"postData\": {\"mimeType\": \"application/json\", \"text\": \"{\\\"n\\\":" + i + "}\"}"
                            : ""));
        }
        return "{\"log\": {\"version\": \"1.2\", \"creator\": {\"name\": \"test\"}, \"entries\": [\n" + entries + "\n]}}";
    }
}
