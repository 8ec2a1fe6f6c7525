package dev.fulcrum.engine.sim;

import dev.fulcrum.engine.strategy.RequestContext;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * A recorded request as strategies see it: its client address, method, path (the target up to {@code ?}), headers
 * (names matched case-insensitively, the first value), cookies (from its {@code Cookie} headers) and query
 * parameters (decoded as a form is). Unlike {@link SimRequestContext}, whose one key stands in for every part, each
 * part is the request's own, so {@code key=header:X-User} hashes what the recording has in {@code X-User}, and a
 * request without it falls back to its client address as the proxy's would.
 *
 * <p>It also notes what a hashing strategy hashed ({@link #hashed}), which the side by side samples for the keys a
 * departing backend moves. Not thread-safe: one per request, read by one lane at a time.
 */
public final class RecordedRequestContext implements RequestContext {
    private final String clientIp;
    private final String method;
    private final String target;
    private final List<Map.Entry<String, String>> headers;
    private String hashedKey;
    private long hashedHash;
    private boolean wasHashed;

    /**
     * @param clientIp the client's address, or null (a hash on it then hashes the empty string)
     * @param target   path and query, e.g. {@code /cart?id=3}
     * @param headers  in recorded order
     */
    public RecordedRequestContext(String clientIp, String method, String target, List<Map.Entry<String, String>> headers) {
        this.clientIp = clientIp;
        this.method = method == null ? "GET" : method;
        this.target = target == null ? "/" : target;
        this.headers = headers == null ? List.of() : headers;
    }

    @Override
    public String clientIp() {
        return clientIp;
    }

    @Override
    public String method() {
        return method;
    }

    @Override
    public String path() {
        int q = target.indexOf('?');
        return q < 0 ? target : target.substring(0, q);
    }

    @Override
    public String header(String name) {
        for (Map.Entry<String, String> h : headers) {
            if (h.getKey().equalsIgnoreCase(name)) {
                return h.getValue();
            }
        }
        return null;
    }

    @Override
    public String cookie(String name) {
        for (Map.Entry<String, String> h : headers) {
            if (!h.getKey().equalsIgnoreCase("Cookie")) {
                continue;
            }
            for (String pair : h.getValue().split(";")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).trim().equals(name)) {
                    return pair.substring(eq + 1).trim();
                }
            }
        }
        return null;
    }

    @Override
    public String queryParam(String name) {
        int q = target.indexOf('?');
        if (q < 0) {
            return null;
        }
        for (String pair : target.substring(q + 1).split("&")) {
            int eq = pair.indexOf('=');
            String k = decode(eq < 0 ? pair : pair.substring(0, eq));
            if (k.equals(name)) {
                return eq < 0 ? "" : decode(pair.substring(eq + 1));
            }
        }
        return null;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s; // a stray % in a log: the raw text is still a key
        }
    }

    @Override
    public void hashed(String key, long hash) {
        hashedKey = key == null ? "" : key;
        hashedHash = hash;
        wasHashed = true;
    }

    /** Forgets what the last pick hashed (before each lane's pick). */
    void clearHashed() {
        wasHashed = false;
        hashedKey = null;
    }

    /** The hash of {@link #hashedKey}, as the strategy computed it. */
    long hashedHash() {
        return hashedHash;
    }

    /** What the last pick hashed, or null when it hashed nothing. */
    String hashedKey() {
        return wasHashed ? hashedKey : null;
    }
}
