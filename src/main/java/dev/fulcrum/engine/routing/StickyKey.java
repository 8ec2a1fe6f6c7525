package dev.fulcrum.engine.routing;

import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.rules.Limits;

/**
 * Which part of a request keeps a user in one arm of a split ({@code routes[i].stickyBy}): {@code cookie:NAME},
 * {@code header:NAME}, {@code ip} or {@code none}. Immutable.
 */
public record StickyKey(Kind kind, String name) {
    public enum Kind { NONE, COOKIE, HEADER, IP }

    public static final StickyKey NONE = new StickyKey(Kind.NONE, null);

    /**
     * Reads {@code cookie:NAME}, {@code header:NAME}, {@code ip} or {@code none} (null: none).
     *
     * @throws IllegalArgumentException naming what is wrong with the text
     */
    public static StickyKey parse(String text) {
        if (text == null || text.equals("none")) {
            return NONE;
        }
        if (text.equals("ip")) {
            return new StickyKey(Kind.IP, null);
        }
        int colon = text.indexOf(':');
        String kind = colon < 0 ? text : text.substring(0, colon);
        String name = colon < 0 ? "" : text.substring(colon + 1);
        if (!kind.equals("cookie") && !kind.equals("header")) {
            throw new IllegalArgumentException("must be cookie:NAME, header:NAME, ip or none");
        }
        if (!Limits.TOKEN.matcher(name).matches()) {
            throw new IllegalArgumentException("needs a " + kind + " name after \"" + kind + ":\"");
        }
        return new StickyKey(kind.equals("cookie") ? Kind.COOKIE : Kind.HEADER, name);
    }

    /** The request's key, or null when it has none (then the arm is drawn at random). */
    public String of(RequestContext request) {
        switch (kind) {
            case COOKIE:
                return request.cookie(name);
            case HEADER:
                return request.header(name);
            case IP:
                return request.clientIp();
            default:
                return null;
        }
    }

    @Override
    public String toString() {
        return kind == Kind.NONE ? "none" : kind == Kind.IP ? "ip" : kind.name().toLowerCase() + ":" + name;
    }
}
