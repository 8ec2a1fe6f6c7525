package dev.fulcrum.ui.requests;

import dev.fulcrum.engine.DecisionTrace;
import dev.fulcrum.engine.strategy.RequestContext;
import dev.fulcrum.i18n.Texts;
import dev.fulcrum.requests.RequestSample;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * "Why this backend" for a request the proxy completed: what its record says (the pool, the key it hashed and the
 * hash, a sticky cookie, bounded loads' spill, every attempt and how the request ended, and, when
 * {@code proxy.logDecisions} recorded it, how each pick chose: {@link DecisionText}), and, for the embedded engine,
 * what {@link DecisionTrace#explain} says of the same request against the pool as it is now.
 *
 * <p>The request the trace is asked about is {@link #request}: the record's method, path, client, headers and query.
 * When a hashing strategy hashed the request, every part a key can read answers the key it hashed, so the pool now
 * hashes the very same value even where the record masks it (a cookie) or the route stripped it (a path prefix); a
 * sticky request names the backend its cookie chose, which the masked cookie no longer can.
 *
 * <p>Example: consistent hashing on {@code cookie:sid}, recorded key {@code u42}, attempts {@code a connect-failure,
 * b success}: the record reads "hashed "u42" ... tried a (connect-failure), then b (success) ... b answered 200"; asked
 * now, with {@code a} back up, the trace reads "... picked a", and the view says it would go elsewhere now.
 */
public final class RecordedDecision {
    private RecordedDecision() {
    }

    /** The decision as recorded, one line a fact. */
    public static List<String> recorded(RequestSample r) {
        return recorded(r, null);
    }

    /**
     * The decision as recorded, one line a fact; its picks' scores, draws and fallbacks in words when it carries them.
     *
     * @param staleAfterMs the pool's {@code staleAfterMs} where known, to say how old stale metrics were; or null
     */
    public static List<String> recorded(RequestSample r, Long staleAfterMs) {
        List<String> out = new ArrayList<>();
        out.add(routed(r));
        if (r.key() == null) {
            out.add(Texts.t("requests.why.not_hashed"));
        } else {
            out.add(Texts.t("requests.why.hashed", r.key(), String.format("0x%016x", r.keyHash())));
        }
        if (r.sticky()) {
            out.add(Texts.t("requests.why.sticky", stickyBackend(r)));
        }
        if (r.spilled()) {
            out.add(Texts.t("requests.why.spilled"));
        }
        List<RequestSample.Attempt> tries = r.attempts();
        for (int i = 0; i < tries.size(); i++) {
            RequestSample.Attempt a = tries.get(i);
            out.add(Texts.t(i == 0 ? "requests.why.tried" : "requests.why.then", a.backend(),
                    RequestText.outcome(a.outcome()), RequestText.duration(a.ms())));
        }
        if (r.decision() != null) {
            out.addAll(DecisionText.lines(r.decision(), staleAfterMs));
        }
        out.add(ending(r));
        return out;
    }

    /** Where it went first: the route that took it, its split's arm or its mirror, and the pool. */
    private static String routed(RequestSample r) {
        RequestSample.Routing g = r.routing();
        if (g == null || g.route() == null) {
            return Texts.t("requests.why.routed", r.pool());
        }
        String route = Integer.toString(g.route());
        if (g.mirror()) {
            return Texts.t("requests.why.routed.mirror", route, r.pool());
        }
        return Texts.t(g.arm() != null ? "requests.why.routed.arm" : "requests.why.routed.route", route, r.pool());
    }

    private static String ending(RequestSample r) {
        String status = Integer.toString(r.status());
        if (r.routing() != null && r.routing().shed()) {
            return Texts.t("requests.why.shed", status);
        }
        if (r.refused()) {
            return Texts.t("requests.why.refused", status);
        }
        RequestSample.Attempt last = r.attempts().isEmpty() ? null : r.attempts().get(r.attempts().size() - 1);
        if (r.status() == 499) {
            return last == null ? Texts.t("requests.why.hung_up")
                    : Texts.t("requests.why.hung_up.while", last.backend());
        }
        if (r.backend() == null) {
            return Texts.t(r.attempts().size() > 1 ? "requests.why.no_answer.retries" : "requests.why.no_answer",
                    status);
        }
        if (r.upgraded()) {
            return Texts.t("requests.why.switched", r.backend());
        }
        return Texts.t(r.retried() ? "requests.why.answered.retry" : "requests.why.answered", r.backend(), status);
    }

    /** The backend a sticky request's cookie named (its first attempt), or null when it was not sticky. */
    public static String stickyBackend(RequestSample r) {
        return r.sticky() && !r.attempts().isEmpty() ? r.attempts().get(0).backend() : null;
    }

    /** The decision the pool makes now for the same request, beside the recorded one. */
    public static List<String> now(DecisionTrace t, RequestSample r) {
        List<String> out = new ArrayList<>();
        out.add(Texts.t("requests.why.now", t.summary()));
        if (t.key() != null && r.key() != null && !t.key().equals(r.key())) {
            out.add(Texts.t("requests.why.now.hashes", t.key(), String.valueOf(t.hashKey()), r.key()));
        } else if (t.key() != null && r.key() == null) {
            out.add(Texts.t("requests.why.now.hashes.unhashed", t.key(), String.valueOf(t.hashKey())));
        }
        String was = r.attempts().isEmpty() ? null : r.attempts().get(0).backend();
        if (t.picked() == null) {
            out.add(was == null ? Texts.t("requests.why.now.nobody") : Texts.t("requests.why.now.nobody.went", was));
        } else if (Objects.equals(t.picked(), was)) {
            out.add(Texts.t("requests.why.now.same", t.picked()));
        } else {
            out.add(was == null ? Texts.t("requests.why.now.elsewhere.nobody", t.picked())
                    : Texts.t("requests.why.now.elsewhere", t.picked(), was));
        }
        return out;
    }

    /** The recorded request as the engine's strategies read one (see the class comment). */
    public static RequestContext request(RequestSample r) {
        return new Recorded(r);
    }

    private record Recorded(RequestSample r) implements RequestContext {
        @Override
        public String clientIp() {
            return r.client();
        }

        @Override
        public String method() {
            return r.method();
        }

        @Override
        public String path() {
            return r.key() != null ? r.key() : r.path();
        }

        @Override
        public String header(String name) {
            if (r.key() != null) {
                return r.key();
            }
            for (RequestSample.Header h : r.requestHeaders()) {
                if (h.name().equalsIgnoreCase(name)) {
                    return h.value();
                }
            }
            return null;
        }

        /** Cookie values are masked in the record: only the hashed one is known. */
        @Override
        public String cookie(String name) {
            return r.key();
        }

        @Override
        public String queryParam(String name) {
            if (r.key() != null) {
                return r.key();
            }
            if (r.query() == null) {
                return null;
            }
            for (String pair : r.query().split("&")) {
                int eq = pair.indexOf('=');
                if (decode(eq < 0 ? pair : pair.substring(0, eq)).equals(name)) {
                    return eq < 0 ? "" : decode(pair.substring(eq + 1));
                }
            }
            return null;
        }

        private static String decode(String s) {
            try {
                return URLDecoder.decode(s, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException badEscape) {
                return s; // shown as sent
            }
        }
    }
}
