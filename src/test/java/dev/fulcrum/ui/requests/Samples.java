package dev.fulcrum.ui.requests;

import dev.fulcrum.requests.RequestSample;
import java.util.List;

/** Requests as the stream delivers them, for the view's tests. */
final class Samples {
    private Samples() {
    }

    static RequestSample request(String id, long startMillis, String pool, String path, int status, String backend,
                                 List<RequestSample.Attempt> attempts) {
        return new RequestSample(id, startMillis, pool, "GET", path, null, "http", "HTTP/1.1", "127.0.0.1", null, 0,
                attempts, backend, status, 0, 120, 3.5, attempts.size() > 1, false, false, false, false,
                List.of(new RequestSample.Header("Host", "localhost:8080"), new RequestSample.Header("Cookie", "sid=***")),
                List.of(new RequestSample.Header("Content-Type", "text/plain")));
    }

    static RequestSample ok(String id, long startMillis, String backend) {
        return request(id, startMillis, "default", "/p/" + id, 200, backend, List.of(success(backend)));
    }

    /** {@code r} as routed by {@code g}. */
    static RequestSample routed(RequestSample r, RequestSample.Routing g) {
        return new RequestSample(r.id(), r.startMillis(), r.pool(), r.method(), r.path(), r.query(), r.scheme(),
                r.protocol(), r.client(), r.key(), r.keyHash(), r.attempts(), r.backend(), r.status(), r.bytesIn(),
                r.bytesOut(), r.latencyMs(), r.retried(), r.sticky(), r.spilled(), r.refused(), r.upgraded(),
                r.requestHeaders(), r.responseHeaders(), r.decision(), g);
    }

    static RequestSample.Attempt success(String backend) {
        return new RequestSample.Attempt(backend, "SUCCESS", 3.0);
    }

    static RequestSample.Attempt failed(String backend, String outcome) {
        return new RequestSample.Attempt(backend, outcome, 0.4);
    }

    static RequestSample tunnel(String id, long startMillis, String backend, long in, long out, double ms) {
        return new RequestSample(id, startMillis, "default", "GET", "/ws", null, "http", "HTTP/1.1", "127.0.0.1", null,
                0, List.of(success(backend)), backend, 101, in, out, ms, false, false, false, false, true, List.of(),
                List.of());
    }
}
