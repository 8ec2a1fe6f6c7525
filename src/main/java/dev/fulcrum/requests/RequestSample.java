package dev.fulcrum.requests;

import java.util.List;

/**
 * One completed request as the proxy saw it, copied out of the {@link RequestStream}: what {@code /api/requests}
 * sends, what the window's Live and Requests views draw, and what a HAR export holds (docs/REFERENCE.md §5).
 *
 * @param id         this request's place in the stream: unique and increasing per I/O thread ({@code stripe:n})
 * @param startMillis wall-clock time the request arrived
 * @param pool       the pool it was routed to
 * @param method     request method
 * @param path       the target as the client sent it, without the query
 * @param query      the query (after {@code ?}), or null
 * @param scheme     {@code http} or {@code https}
 * @param protocol   {@code HTTP/1.1}, {@code HTTP/2.0}...
 * @param client     the client's address
 * @param key        what the strategy hashed (the path, a header's value, the client address), or null when it does
 *                   not hash
 * @param keyHash    the 64-bit hash of {@code key} (unsigned), meaningful only when {@code key} is set
 * @param attempts   every backend tried, in order, with how each attempt ended
 * @param backend    the backend whose answer the client got, or null (refused, unreachable, the client left)
 * @param status     the status the client got (499: it hung up first; 101: an upgraded connection, at its close)
 * @param bytesIn    request body bytes from the client (for a tunnel: bytes the client sent through it)
 * @param bytesOut   response bytes to the client (for a tunnel: bytes the backend sent through it)
 * @param latencyMs  from arrival to the end (for a tunnel: its whole life)
 * @param retried    more than one attempt
 * @param sticky     a sticky cookie chose the backend
 * @param spilled    bounded loads walked the key past its owner, which was at its cap
 * @param refused    no backend could take it (503: none available, breakers open)
 * @param upgraded   an HTTP/1.1 Upgrade (WebSocket) tunnel
 * @param requestHeaders  the client's headers, as received
 * @param responseHeaders the headers sent to the client
 * @param decision   how the strategy chose, when {@code proxy.logDecisions} was on; null otherwise
 */
public record RequestSample(String id, long startMillis, String pool, String method, String path, String query,
                            String scheme, String protocol, String client, String key, long keyHash, List<Attempt> attempts,
                            String backend, int status, long bytesIn, long bytesOut, double latencyMs, boolean retried,
                            boolean sticky, boolean spilled, boolean refused, boolean upgraded,
                            List<Header> requestHeaders, List<Header> responseHeaders, Decision decision,
                            Routing routing) {
    /**
     * How a request was routed (docs/REFERENCE.md §2.1 {@code routes}): the route's index as written, the split's arm
     * (its pool) or null, the route's class or null; {@code mirror} for a mirrored copy (never a client's request: its
     * own record, not counted among the answers); {@code shed} for one refused at its class's ceiling.
     */
    public record Routing(Integer route, String arm, String routeClass, boolean mirror, boolean shed) {
        public static final Routing NONE = new Routing(null, null, null, false, false);
    }

    /** A request that took no route beyond the default pool. */
    public RequestSample(String id, long startMillis, String pool, String method, String path, String query,
                         String scheme, String protocol, String client, String key, long keyHash, List<Attempt> attempts,
                         String backend, int status, long bytesIn, long bytesOut, double latencyMs, boolean retried,
                         boolean sticky, boolean spilled, boolean refused, boolean upgraded,
                         List<Header> requestHeaders, List<Header> responseHeaders, Decision decision) {
        this(id, startMillis, pool, method, path, query, scheme, protocol, client, key, keyHash, attempts, backend,
                status, bytesIn, bytesOut, latencyMs, retried, sticky, spilled, refused, upgraded, requestHeaders,
                responseHeaders, decision, Routing.NONE);
    }

    /** A request recorded without its decision ({@code proxy.logDecisions} off). */
    public RequestSample(String id, long startMillis, String pool, String method, String path, String query,
                         String scheme, String protocol, String client, String key, long keyHash, List<Attempt> attempts,
                         String backend, int status, long bytesIn, long bytesOut, double latencyMs, boolean retried,
                         boolean sticky, boolean spilled, boolean refused, boolean upgraded,
                         List<Header> requestHeaders, List<Header> responseHeaders) {
        this(id, startMillis, pool, method, path, query, scheme, protocol, client, key, keyHash, attempts, backend,
                status, bytesIn, bytesOut, latencyMs, retried, sticky, spilled, refused, upgraded, requestHeaders,
                responseHeaders, null);
    }

    /** One try on one backend: its id, how it ended ({@code success}, {@code connect-failure} ...), how long it took. */
    public record Attempt(String backend, String outcome, double ms) {
    }

    /** One header line. */
    public record Header(String name, String value) {
    }

    /** {@link #keyHash} as the unsigned decimal the admin API sends (JSON numbers lose precision past 2^53). */
    public String keyHashText() {
        return key == null ? null : Long.toUnsignedString(keyHash);
    }
}
