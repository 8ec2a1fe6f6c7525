package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.EngineException;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Violation;

/**
 * Which part of a request a hashing strategy hashes (docs/REFERENCE.md §2.2 {@code key}): {@code ip}, {@code path},
 * {@code header:NAME}, {@code cookie:NAME} or {@code query:NAME}. Parsed once when the strategy is built, so
 * a pick only reads the one value it needs. A request without that value (or with an empty one) is hashed
 * on its client IP instead, so a request never goes unrouted for lack of a key.
 *
 * <p>Example: {@code HashKey.parse("header:X-User")} reads {@code X-User}; a request without it hashes
 * {@code clientIp()}.
 */
final class HashKey {
    enum Source { IP, PATH, HEADER, COOKIE, QUERY }

    private final Source source;
    private final String name; // header, cookie or query parameter name; null for ip and path
    private final String spec;

    private HashKey(Source source, String name, String spec) {
        this.source = source;
        this.name = name;
        this.spec = spec;
    }

    static final HashKey IP = new HashKey(Source.IP, null, "ip");

    /**
     * @throws EngineException 400 naming the field and value when the spec is not one of the five forms
     */
    static HashKey parse(String spec) {
        if (Limits.hashKey(spec) != null) {
            throw new EngineException(400, new Violation("strategy.key", Limits.KEY_RULE, spec).describe());
        }
        if (spec == null || spec.equals("ip")) {
            return IP;
        }
        if (spec.equals("path")) {
            return new HashKey(Source.PATH, null, spec);
        }
        int colon = spec.indexOf(':');
        Source source = switch (spec.substring(0, colon)) {
            case "header" -> Source.HEADER;
            case "cookie" -> Source.COOKIE;
            default -> Source.QUERY;
        };
        return new HashKey(source, spec.substring(colon + 1), spec);
    }

    Source source() {
        return source;
    }

    String name() {
        return name;
    }

    /** The value to hash for this request: the configured part, or the client IP when that is missing. */
    String read(RequestContext request) {
        String v = switch (source) {
            case IP -> null;
            case PATH -> request.path();
            case HEADER -> request.header(name);
            case COOKIE -> request.cookie(name);
            case QUERY -> request.queryParam(name);
        };
        if (v == null || v.isEmpty()) {
            v = request.clientIp();
        }
        return v == null ? "" : v;
    }

    @Override
    public String toString() {
        return spec;
    }
}
