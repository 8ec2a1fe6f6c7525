package dev.fulcrum.replay;

import java.util.List;
import java.util.Map;

/**
 * One request read from a recording (a HAR file, an nginx access log, Fulcrum's JSON access log), as the side-by-side
 * comparison and the live replay take it. Fields the recording does not have are null, NaN or 0 as said below.
 *
 * <p>Example, the nginx line {@code 10.0.0.7 - - [05/Dec/2026:07:00:01 +0000] "GET /api/x?id=3 HTTP/1.1" 200 512 "-"
 * "curl/8" 0.031}: at 2026-12-05T07:00:01Z, GET {@code /api/x?id=3}, no headers but the user agent, no body, service
 * time 31 ms, status 200, client 10.0.0.7, line 1.
 *
 * @param atMicros  when it arrived, microseconds since the epoch (offsets between requests are what replay uses)
 * @param method    e.g. {@code GET}
 * @param target    the path with its query string, as sent (e.g. {@code /api/x?id=3})
 * @param headers   request headers in recorded order (name, value); empty when the recording has none
 * @param body      the request body, or null when the recording has none
 * @param serviceMs how long the upstream took to answer (HAR {@code timings.wait}, nginx
 *                  {@code $upstream_response_time} else {@code $request_time}), NaN when unknown
 * @param upstream  the backend that served it as recorded ({@code $upstream_addr}, a HAR server IP), or null
 * @param status    the answer's status, 0 when unknown
 * @param clientIp  the client address, or null
 * @param line      where it was read: the line (logs) or the entry's number (HAR), from 1
 */
public record RecordedRequest(long atMicros, String method, String target, List<Map.Entry<String, String>> headers,
                              byte[] body, double serviceMs, String upstream, int status, String clientIp,
                              long line) {
    public RecordedRequest {
        headers = headers == null ? List.of() : List.copyOf(headers);
    }
}
