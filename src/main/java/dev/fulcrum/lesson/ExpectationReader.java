package dev.fulcrum.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fulcrum.config.JsonBinder;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Range;
import dev.fulcrum.replay.StrategyList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The grammar of what a lesson's steps expect and wait for (docs/REFERENCE.md §5.1): each expectation named by its first
 * field, with the fields it takes beside it, and the bounds it is checked against. Values are read by the config's
 * rules ({@link JsonBinder}), problems collected by JSON path in the binder's list. It also holds the small parts of
 * the grammar {@link LessonReader}'s actions share: the one kind field of an object, an optional field, a backend id
 * of the lesson, a flag that must be true.
 *
 * <p>Example: {@code {"share": "demo-c", "between": [0.09, 0.13]}} is {@code new Expectation.Share("demo-c",
 * Bound.between(0.09, 0.13))}; {@code {"p99": {"below": "x"}}} at {@code steps[1].expect[0]} gives {@code
 * steps[1].expect[0].p99.below: must be a number (got: "x")}.
 */
final class ExpectationReader {
    /** Each expectation's kind and the fields it takes beside it (a bound's fields where it takes one beside it). */
    private static final Map<String, List<String>> EXPECTATIONS = new LinkedHashMap<>();
    /** The field that narrows a traffic figure to one traffic class of the lesson's traffic. */
    private static final String CLASS = "class";
    /** Beside a latency of one class: the other class it is compared with (the bound is then on the ratio). */
    private static final String VERSUS = "versus";
    private static final List<String> BREAKER_STATES = List.of("CLOSED", "OPEN", "HALF_OPEN");
    private static final List<String> BACKEND_STATES = Arrays.stream(BackendState.values()).map(Enum::name).toList();

    static {
        List<String> bound = Bound.FIELDS;
        List<String> boundOfClass = new ArrayList<>(bound);
        boundOfClass.add(CLASS);
        EXPECTATIONS.put("share", boundOfClass);
        EXPECTATIONS.put("poolShare", boundOfClass);
        EXPECTATIONS.put("maxShare", List.of());
        EXPECTATIONS.put("backendsUsed", List.of());
        EXPECTATIONS.put("answers", List.of(CLASS));
        EXPECTATIONS.put("status", boundOfClass);
        EXPECTATIONS.put("p50", List.of(CLASS, VERSUS));
        EXPECTATIONS.put("p90", List.of(CLASS, VERSUS));
        EXPECTATIONS.put("p99", List.of(CLASS, VERSUS));
        EXPECTATIONS.put("trafficDone", List.of());
        EXPECTATIONS.put("resent", bound);
        EXPECTATIONS.put("sentOnce", List.of());
        EXPECTATIONS.put("breaker", List.of("is", "went"));
        EXPECTATIONS.put("state", List.of("is"));
        EXPECTATIONS.put("effectiveWeight", bound);
        EXPECTATIONS.put("event", List.of("happened"));
        EXPECTATIONS.put("mirrored", bound);
        EXPECTATIONS.put("mirrorErrors", bound);
        List<String> shedFields = new ArrayList<>(bound);
        shedFields.add("route");
        EXPECTATIONS.put("shed", shedFields);
        EXPECTATIONS.put("stickyArms", List.of("keys", "requests"));
        EXPECTATIONS.put("previewMoved", List.of());
        EXPECTATIONS.put("sequence", List.of("path", "headers"));
        EXPECTATIONS.put("longestRun", List.of("requests", "simulated"));
        EXPECTATIONS.put("movedKeys", List.of("keys", "onlyTo", "onlyFrom", "strays"));
        EXPECTATIONS.put("ringSpread", List.of());
        EXPECTATIONS.put("recordedP99", List.of("strategy", "versus", "recording", "on", "logFormat"));
    }

    private final JsonBinder json;
    /** The backend ids of the lesson so far, as {@link LessonReader} adds them step by step. */
    private final Set<String> backends;
    /** The pools, routes and traffic classes of the lesson so far, kept by {@link LessonReader} likewise. */
    private final Set<String> pools;
    private final List<dev.fulcrum.config.RouteConfig> routes;
    private final Set<String> classes;

    ExpectationReader(JsonBinder json, Set<String> backends) {
        this(json, backends, Set.of(), List.of(), Set.of());
    }

    ExpectationReader(JsonBinder json, Set<String> backends, Set<String> pools,
                      List<dev.fulcrum.config.RouteConfig> routes, Set<String> classes) {
        this.json = json;
        this.backends = backends;
        this.pools = pools;
        this.routes = routes;
        this.classes = classes;
    }

    /** A step's {@code waitFor}: a condition that only reads figures, and its {@code timeoutMs}. */
    WaitFor waitFor(JsonNode n, String path) {
        if (!json.object(n, path)) {
            return null;
        }
        Long timeout = null;
        if (!n.has("timeoutMs")) {
            json.refuse(child(path, "timeoutMs"), "required: every wait has a timeout", "missing");
        } else {
            timeout = json.integerIn(n.get("timeoutMs"), child(path, "timeoutMs"), 1, WaitFor.MAX_TIMEOUT_MS);
        }
        ObjectNode rest = ((ObjectNode) n).deepCopy();
        rest.remove("timeoutMs");
        Expectation e = expectation(rest, path, true);
        if (e != null && !e.passive()) {
            json.refuse(path, "a wait takes a condition the engine and the traffic show (not one that sends or walks)",
                    rest);
            return null;
        }
        return e == null || timeout == null ? null : new WaitFor(e, timeout);
    }

    /** One of a step's {@code expect} entries, or a wait's condition ({@code forWait}). */
    Expectation expectation(JsonNode n, String path, boolean forWait) {
        String kind = kind(n, path, EXPECTATIONS.keySet(), forWait ? "condition" : "expectation");
        if (kind == null) {
            return null;
        }
        List<String> known = new ArrayList<>(List.of(kind));
        known.addAll(EXPECTATIONS.get(kind));
        json.object(n, path, known);
        String at = child(path, kind);
        JsonNode v = n.get(kind);
        switch (kind) {
            case "share":
                return new Expectation.Share(backend(n, path, kind), boundBeside(n, path), requestClass(n, path));
            case "poolShare":
                return new Expectation.PoolShare(pool(n, path, kind), boundBeside(n, path), requestClass(n, path));
            case "maxShare":
                return new Expectation.MaxShare(bound(v, at));
            case "backendsUsed":
                return new Expectation.BackendsUsed(bound(v, at));
            case "answers":
                if (v.isIntegralNumber()) {
                    Long min = json.integerIn(v, at, 1, Integer.MAX_VALUE);
                    return min == null ? null : new Expectation.Answered(Bound.atLeast(min), requestClass(n, path));
                }
                return new Expectation.Answered(bound(v, at), requestClass(n, path));
            case "status": {
                Long status = json.integerIn(v, at, 100, 599);
                Bound b = boundBeside(n, path);
                String c = requestClass(n, path);
                return status == null ? null : new Expectation.Status(status.intValue(), b, c);
            }
            case "p50":
            case "p90":
            case "p99":
                return latency(n, path, kind);
            case "trafficDone":
                return isTrue(v, at) ? new Expectation.TrafficDone() : null;
            case "resent":
                return new Expectation.Resent(json.oneOf(v, at, List.of("GET", "POST")), boundBeside(n, path));
            case "sentOnce":
                return new Expectation.SentOnce(json.oneOf(v, at, List.of("GET", "POST")));
            case "breaker":
                return breaker(n, path);
            case "state": {
                String id = backend(n, path, kind);
                if (!n.has("is")) {
                    json.refuse(child(path, "is"), "required", "missing");
                    return null;
                }
                return new Expectation.StateIs(id, json.oneOf(n.get("is"), child(path, "is"), BACKEND_STATES));
            }
            case "effectiveWeight":
                return new Expectation.EffectiveWeight(backend(n, path, kind), boundBeside(n, path));
            case "event": {
                String type = json.oneOf(v, at, Expectation.Event.TYPES);
                Boolean happened = n.has("happened") ? json.bool(n.get("happened"), child(path, "happened")) : null;
                if (!n.has("happened")) {
                    json.refuse(child(path, "happened"), "required: true or false", "missing");
                }
                return type == null || happened == null ? null : new Expectation.Event(type, happened);
            }
            case "mirrored":
                return new Expectation.Mirrored(pool(n, path, kind), boundBeside(n, path));
            case "mirrorErrors":
                return new Expectation.MirrorErrors(pool(n, path, kind), boundBeside(n, path));
            case "shed":
                return shed(n, path);
            case "stickyArms":
                return stickyArms(n, path);
            case "previewMoved":
                return new Expectation.PreviewMoved(bound(v, at));
            case "sequence":
                return sequence(n, path);
            case "longestRun":
                return longestRun(n, path);
            case "movedKeys":
                return movedKeys(n, path);
            case "ringSpread":
                return new Expectation.RingSpread(bound(v, at));
            case "recordedP99":
                return recordedP99(n, path);
            default:
                throw new IllegalStateException(kind);
        }
    }

    /** {@code {"p90": BOUND, "class": C, "versus": D}}: versus names another class, and only beside a class. */
    private Expectation latency(JsonNode n, String path, String kind) {
        Bound b = bound(n.get(kind), child(path, kind));
        String c = requestClass(n, path);
        String versus = null;
        if (n.has(VERSUS)) {
            String at = child(path, VERSUS);
            if (!n.has(CLASS)) {
                json.refuse(at, "only beside class: the ratio of one class's latency to another's", n.get(VERSUS));
            } else {
                versus = optional(n, path, VERSUS, json::string);
                if (versus != null && json.refuse(at, classes.contains(versus) && !versus.equals(c) ? null
                        : "must be another class the lesson's traffic sends, one of " + String.join(", ", classes),
                        versus)) {
                    versus = null;
                }
            }
        }
        return new Expectation.Latency(kind, b, c, versus);
    }

    /** {@code {"shed": BOUND, "route": N}}: the route, when given, one of the lesson's. */
    private Expectation shed(JsonNode n, String path) {
        Bound b = bound(n.get("shed"), child(path, "shed"));
        Integer route = optional(n, path, "route", json::integer);
        if (route != null) {
            json.refuse(child(path, "route"), route >= 0 && route < routes.size() ? null : routes.isEmpty()
                    ? "no such route: the lesson has no routes" : "no such route, the lesson's are 0-"
                    + (routes.size() - 1), route);
        }
        return b == null ? null : new Expectation.Shed(route, b);
    }

    /** {@code {"stickyArms": "cookie:NAME", "keys": N, "requests": M}}: the key where a route's stickyBy reads it. */
    private Expectation stickyArms(JsonNode n, String path) {
        String at = child(path, "stickyArms");
        String keyIn = json.string(n.get("stickyArms"), at);
        if (keyIn != null && !(keyIn.startsWith("cookie:") || keyIn.startsWith("header:"))
                || keyIn != null && Limits.hashKey(keyIn) != null) {
            json.refuse(at, "must be cookie:NAME or header:NAME, where the route's stickyBy reads the user", keyIn);
            keyIn = null;
        }
        Integer keys = optional(n, path, "keys", json::integer);
        int users = keys == null ? 100 : keys;
        json.refuse(child(path, "keys"), new Range(2, 1000).problem(users), users);
        Integer requests = optional(n, path, "requests", json::integer);
        int each = requests == null ? 3 : requests;
        json.refuse(child(path, "requests"), new Range(2, 20).problem(each), each);
        return keyIn == null ? null : new Expectation.StickyArms(keyIn, users, each);
    }

    /** A pool of the lesson so far in the string field {@code field} of {@code n}. */
    private String pool(JsonNode n, String path, String field) {
        String at = child(path, field);
        String name = json.string(n.get(field), at);
        if (name == null || json.refuse(at, pools.contains(name) ? null : "no such pool in the lesson, one of "
                + String.join(", ", pools), name)) {
            return null;
        }
        return name;
    }

    /** The optional {@code class} beside a traffic figure: a class the lesson's traffic sends. */
    private String requestClass(JsonNode n, String path) {
        String c = optional(n, path, CLASS, json::string);
        if (c != null && json.refuse(child(path, CLASS), classes.contains(c) ? null : classes.isEmpty()
                ? "no traffic of the lesson so far sends classes" : "no traffic of the lesson so far sends this class,"
                + " one of " + String.join(", ", classes), c)) {
            return null;
        }
        return c;
    }

    private Expectation breaker(JsonNode n, String path) {
        String id = backend(n, path, "breaker");
        if (n.has("is") == n.has("went")) {
            json.refuse(path, "needs is or went (one of them)", n);
            return null;
        }
        if (n.has("is")) {
            return new Expectation.BreakerIs(id, json.oneOf(n.get("is"), child(path, "is"), BREAKER_STATES));
        }
        JsonNode went = n.get("went");
        String at = child(path, "went");
        List<String> states = json.list(went, at, (s, p) -> json.oneOf(s, p, BREAKER_STATES));
        if (states != null && went.isEmpty()) {
            json.refuse(at, "must be an array of breaker states", went);
        }
        return states == null ? null : new Expectation.BreakerWent(id, states);
    }

    private Expectation sequence(JsonNode n, String path) {
        JsonNode v = n.get("sequence");
        String at = child(path, "sequence");
        List<String> ids = json.list(v, at, (id, p) -> known(json.string(id, p), p));
        if (ids == null) {
            return null;
        }
        if (v.size() < 2) {
            json.refuse(at, "must be an array of at least two backend ids", v);
        }
        String requestPath = optional(n, path, "path", json::string);
        if (requestPath != null && !requestPath.startsWith("/")) {
            json.refuse(child(path, "path"), "must start with /", requestPath);
        }
        Map<String, String> headers = optional(n, path, "headers", (h, p) -> json.map(h, p, json::string));
        if (headers != null) {
            for (String name : headers.keySet()) {
                json.refuse(child(child(path, "headers"), name), Limits.TOKEN.matcher(name).matches() ? null
                        : "must be a header name (a token)", name);
            }
        }
        return new Expectation.Sequence(ids, requestPath == null ? "/" : requestPath,
                headers == null ? Map.of() : headers);
    }

    private Expectation longestRun(JsonNode n, String path) {
        Bound b = bound(n.get("longestRun"), child(path, "longestRun"));
        Integer requests = optional(n, path, "requests", json::integer);
        int count = requests == null ? 70 : requests;
        json.refuse(child(path, "requests"), new Range(2, 10_000).problem(count), count);
        String simulated = optional(n, path, "simulated", json::string);
        if (simulated != null && !simulated.equals(Expectation.SimulatedLongestRun.NAIVE)
                && (!StrategySpec.TYPES.contains(simulated) || simulated.equals(StrategySpec.ADAPTIVE))) {
            json.refuse(child(path, "simulated"), "must be a strategy type but adaptive, or "
                    + Expectation.SimulatedLongestRun.NAIVE, simulated);
        }
        return simulated == null ? new Expectation.LongestRun(b, count)
                : new Expectation.SimulatedLongestRun(simulated, b, count);
    }

    private Expectation recordedP99(JsonNode n, String path) {
        Bound b = bound(n.get("recordedP99"), child(path, "recordedP99"));
        String[] fields = {"strategy", "versus", "recording", "on"};
        String[] values = new String[fields.length];
        for (int i = 0; i < fields.length; i++) {
            if (!n.has(fields[i])) {
                json.refuse(child(path, fields[i]), "required", "missing");
            } else {
                values[i] = json.string(n.get(fields[i]), child(path, fields[i]));
            }
        }
        for (int i = 0; i < 2; i++) {
            if (values[i] != null) {
                try {
                    if (StrategyList.parse(values[i]).size() != 1) {
                        json.refuse(child(path, fields[i]), "must be one strategy", values[i]);
                    }
                } catch (IllegalArgumentException e) {
                    json.refuse(child(path, fields[i]), e.getMessage(), values[i]);
                }
            }
        }
        for (int i = 2; i < 4; i++) {
            if (values[i] != null && !RecordedComparisons.exists(values[i])) {
                json.refuse(child(path, fields[i]), "no such resource or file", values[i]);
            }
        }
        String logFormat = optional(n, path, "logFormat", json::string);
        return b == null || java.util.Arrays.asList(values).contains(null) ? null
                : new Expectation.RecordedP99(values[0], values[1], values[2], values[3], logFormat, b);
    }

    private Expectation movedKeys(JsonNode n, String path) {
        Bound b = bound(n.get("movedKeys"), child(path, "movedKeys"));
        Integer keys = optional(n, path, "keys", json::integer);
        int count = keys == null ? 1000 : keys;
        json.refuse(child(path, "keys"), new Range(10, 100_000).problem(count), count);
        String to = n.has("onlyTo") ? backend(n, path, "onlyTo") : null;
        String from = n.has("onlyFrom") ? backend(n, path, "onlyFrom") : null;
        if (n.has("onlyTo") && n.has("onlyFrom")) {
            json.refuse(path, "takes onlyTo or onlyFrom, not both", n);
        }
        Bound strays = Bound.atMost(0);
        if (n.has("strays")) {
            if (!n.has("onlyTo") && !n.has("onlyFrom")) {
                json.refuse(child(path, "strays"), "needs onlyTo or onlyFrom", n.get("strays"));
            }
            strays = bound(n.get("strays"), child(path, "strays"));
        }
        return new Expectation.MovedKeys(b, count, to, from, strays);
    }

    /** A bound written as the kind's own value, e.g. {@code "p99": {"below": 100}}. */
    private Bound bound(JsonNode n, String path) {
        if (!n.isObject()) {
            json.refuse(path, "must be a bound: {\"between\": [low, high]}, {\"above\": x}, {\"below\": x},"
                    + " {\"atLeast\": x} or {\"atMost\": x}", n);
            return null;
        }
        json.object(n, path, Bound.FIELDS);
        return boundBeside(n, path);
    }

    /** A bound written beside the kind, e.g. {@code {"share": "demo-c", "between": [0.09, 0.13]}}. */
    private Bound boundBeside(JsonNode n, String path) {
        List<String> given = Bound.FIELDS.stream().filter(n::has).toList();
        if (given.size() != 1) {
            json.refuse(path, "needs exactly one bound of " + String.join(", ", Bound.FIELDS),
                    given.isEmpty() ? "none" : String.join(", ", given));
            return null;
        }
        String f = given.get(0);
        JsonNode v = n.get(f);
        String at = child(path, f);
        if (f.equals("between")) {
            List<Double> ends = json.list(v, at, json::number);
            if (ends == null || ends.size() != v.size()) {
                return null;
            }
            if (ends.size() != 2) {
                json.refuse(at, "must be [low, high], two numbers", v);
                return null;
            }
            if (ends.get(0) > ends.get(1)) {
                json.refuse(at, "low must not be above high", v);
                return null;
            }
            return Bound.between(ends.get(0), ends.get(1));
        }
        Double x = json.number(v, at);
        if (x == null) {
            return null;
        }
        return switch (f) {
            case "above" -> Bound.above(x);
            case "below" -> Bound.below(x);
            case "atLeast" -> Bound.atLeast(x);
            default -> Bound.atMost(x);
        };
    }

    // ------------------------------------------------------------------ the grammar's small parts

    /** The one kind (verb) field of an action or expectation, or null after saying why there is none. */
    String kind(JsonNode n, String path, Collection<String> kinds, String what) {
        if (!json.object(n, path)) {
            return null;
        }
        List<String> named = new ArrayList<>();
        n.fieldNames().forEachRemaining(f -> {
            if (kinds.contains(f)) {
                named.add(f);
            }
        });
        if (named.size() != 1) {
            json.refuse(path, named.isEmpty() ? "must name one " + what + ": " + String.join(", ", kinds)
                    : "names more than one " + what, named.isEmpty() ? n : String.join(", ", named));
            return null;
        }
        return named.get(0);
    }

    /** An optional field of {@code n} read by {@code reader}; null when absent. */
    <T> T optional(JsonNode n, String path, String field, JsonBinder.Reader<T> reader) {
        JsonNode v = n.get(field);
        return v == null ? null : reader.read(v, child(path, field));
    }

    /** A backend id of the lesson in the string field {@code field} of {@code n}. */
    private String backend(JsonNode n, String path, String field) {
        String at = child(path, field);
        return known(json.string(n.get(field), at), at);
    }

    /** {@code id} when it is a backend of the lesson so far; null (after saying so) when it is not. */
    String known(String id, String path) {
        if (id == null || json.refuse(path, backends.contains(id) ? null : "no such backend in the lesson", id)) {
            return null;
        }
        return id;
    }

    /** Whether {@code v} is {@code true}, the one value a flag like {@code stopTraffic} takes. */
    boolean isTrue(JsonNode v, String path) {
        Boolean b = json.bool(v, path);
        return b != null && !json.refuse(path, b ? null : "must be true", false);
    }

    private static String child(String parent, String name) {
        return JsonBinder.child(parent, name);
    }
}
