package dev.fulcrum.ui.live;

import java.util.ArrayList;
import java.util.List;

/**
 * One dot on the Live stage: a request (or, under load, a group of them) travelling from its client to the proxy, on
 * to each backend it was tried on, and back; its position is a function of the stage's clock, so a test moves the
 * clock and reads where the dot is, and drawing a frame asks each flight once.
 *
 * <p>The legs, in stage seconds (the animation's pace, not the request's real time, which is far too short to see):
 * client to proxy {@value #TO_PROXY}; proxy to a backend {@value #TO_BACKEND}; a failed attempt bounces back to the
 * proxy in {@value #BOUNCE}; the answering backend holds the dot for its share of the latency ({@link #dwell});
 * back to the client through the proxy in {@value #HOME}. A refused request stops at the proxy and fades there for
 * {@value #REFUSED_HOLD}.
 *
 * <p>Example: a GET retried from a to b, answered in 12 ms: client, proxy (0.35 s), a (0.75 s), back at the proxy
 * (1.05 s), b (1.45 s), b holds it 0.05 s, then the proxy and the client (about 2.05 s).
 */
public final class Flight {
    public static final double TO_PROXY = 0.35;
    public static final double TO_BACKEND = 0.40;
    public static final double BOUNCE = 0.30;
    public static final double HOME = 0.55;
    public static final double REFUSED_HOLD = 0.6;
    /** A mirrored copy fades at the mirror pool's backend for this long; nothing comes back to any client. */
    public static final double MIRROR_FADE = 0.7;

    /** What a dot's colour says. */
    public enum Kind { OK, REDIRECT, CLIENT_ERROR, SERVER_ERROR, CLIENT_GONE, REFUSED, UPGRADE }

    /** Where a dot is: a point, how far along its flight (0..1), and whether it is fading out. */
    public record Position(double x, double y, double progress, boolean fading) {
    }

    private record Leg(double from, double to, Target a, Target b) {
    }

    /** A place a leg starts or ends: a client lane, the proxy's two sides, or a backend's card. */
    private record Target(int kind, String backend, int lane) {
        static final int CLIENT = 0;
        static final int PROXY_IN = 1;
        static final int PROXY_OUT = 2;
        static final int BACKEND = 3;

        StageLayout.Point at(StageLayout l) {
            return switch (kind) {
                case CLIENT -> l.client(lane);
                case PROXY_IN -> l.proxyIn();
                case PROXY_OUT -> l.proxyOut();
                default -> {
                    StageLayout.Box b = l.card(backend);
                    yield b == null ? l.proxyOut() : b.entry();
                }
            };
        }
    }

    private final double born;
    private final List<Leg> legs = new ArrayList<>();
    private final double end;
    private final Kind kind;
    private final int count;
    private final String destination;
    private final boolean refused;
    private final boolean mirror;
    private final int lane;

    /**
     * @param born      stage time (seconds) the dot leaves its client
     * @param lane      the client lane it leaves from
     * @param tried     the backends tried, in order; the last is the one that answered unless {@code refused}
     * @param refused   no backend took it: it stops at the proxy
     * @param latencyMs the request's latency, for the answering backend's hold
     * @param kind      what its colour says
     * @param count     how many requests the dot stands for
     */
    public Flight(double born, int lane, List<String> tried, boolean refused, double latencyMs, Kind kind, int count) {
        this.born = born;
        this.lane = lane;
        this.kind = kind;
        this.count = count;
        this.mirror = false;
        this.refused = refused || tried.isEmpty();
        double t = 0;
        Target client = new Target(Target.CLIENT, null, lane);
        Target in = new Target(Target.PROXY_IN, null, 0);
        Target out = new Target(Target.PROXY_OUT, null, 0);
        t = leg(t, TO_PROXY, client, in);
        if (this.refused) {
            t = leg(t, REFUSED_HOLD, in, in);
            this.destination = null;
        } else {
            t = leg(t, 0.001, in, out);
            for (int i = 0; i < tried.size(); i++) {
                Target b = new Target(Target.BACKEND, tried.get(i), 0);
                t = leg(t, TO_BACKEND, out, b);
                if (i < tried.size() - 1) {
                    t = leg(t, BOUNCE, b, out);
                } else {
                    t = leg(t, dwell(latencyMs), b, b);
                    t = leg(t, HOME * 0.45, b, out);
                    t = leg(t, 0.001, out, in);
                    t = leg(t, HOME * 0.55, in, client);
                }
            }
            this.destination = tried.get(tried.size() - 1);
        }
        this.end = t;
    }

    /**
     * A mirrored copy (docs/REFERENCE.md §2.1 {@code routes[].mirror}): it leaves the proxy at {@code born} for the
     * mirror pool's backend that took it, and fades there; no client waits for it. Drawn as a ring, not a dot.
     */
    public static Flight mirror(double born, String backend, Kind kind, int count) {
        return new Flight(born, backend, kind, count);
    }

    private Flight(double born, String backend, Kind kind, int count) {
        this.born = born;
        this.lane = 0;
        this.kind = kind;
        this.count = count;
        this.mirror = true;
        this.refused = false;
        this.destination = backend;
        Target out = new Target(Target.PROXY_OUT, null, 0);
        Target b = new Target(Target.BACKEND, backend, 0);
        double t = leg(0, TO_BACKEND, out, b);
        this.end = leg(t, MIRROR_FADE, b, b);
    }

    /** A mirrored copy: a ring of its outcome's colour, never one of the client's requests. */
    public boolean mirror() {
        return mirror;
    }

    private double leg(double at, double length, Target a, Target b) {
        legs.add(new Leg(at, at + length, a, b));
        return at + length;
    }

    /** How long the answering backend holds the dot: longer for slower answers, so a slow backend shows. */
    static double dwell(double latencyMs) {
        return Math.min(0.9, 0.04 + Math.max(0, latencyMs) / 1000 * 0.8);
    }

    /** Where the dot is at stage time {@code now}, or null before it starts and after it ends. */
    public Position at(double now, StageLayout layout) {
        double t = now - born;
        if (t < 0 || t > end) {
            return null;
        }
        for (Leg g : legs) {
            if (t <= g.to()) {
                double f = g.to() == g.from() ? 1 : (t - g.from()) / (g.to() - g.from());
                double e = f * f * (3 - 2 * f); // ease in and out
                StageLayout.Point a = g.a().at(layout);
                StageLayout.Point b = g.b().at(layout);
                boolean fading = (refused || mirror) && g.a().equals(g.b());
                return new Position(a.x() + (b.x() - a.x()) * e, a.y() + (b.y() - a.y()) * e, t / end, fading);
            }
        }
        return null;
    }

    public boolean done(double now) {
        return now - born > end;
    }

    public double born() {
        return born;
    }

    /** The flight's length in stage seconds. */
    public double length() {
        return end;
    }

    /** The client lane it left from. */
    public int lane() {
        return Math.floorMod(lane, StageLayout.CLIENT_LANES);
    }

    public Kind kind() {
        return kind;
    }

    public int count() {
        return count;
    }

    /** The backend that answered, or null for a refused request. */
    public String destination() {
        return destination;
    }

    public boolean refused() {
        return refused;
    }

    /** The colour class of a status: 2xx, 3xx, 4xx, 5xx, 499 (the client left), 101 (an upgrade). */
    public static Kind kindOf(int status, boolean refused) {
        if (refused) {
            return Kind.REFUSED;
        }
        if (status == 101) {
            return Kind.UPGRADE;
        }
        if (status == 499) {
            return Kind.CLIENT_GONE;
        }
        return status >= 500 ? Kind.SERVER_ERROR : status >= 400 ? Kind.CLIENT_ERROR : status >= 300 ? Kind.REDIRECT
                : Kind.OK;
    }
}
