package dev.fulcrum.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.ConfigWriter;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.engine.BackendState;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.rules.Limits;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a lesson file (docs/REFERENCE.md §5) and checks all of it, collecting every problem by JSON path the way the
 * config reader does, and throwing one {@link LessonException} with them all. The embedded {@code config} goes through
 * the config package's own binder and validator ({@link ConfigLoader#fromTree}) and its problems get {@code config.}
 * in front of their paths; strategy objects in a step go through {@link ConfigLoader#parseStrategy}. Backend ids a
 * step names must be the config's or added by an earlier step.
 *
 * <p>Example: a step {@code {"say": "…", "do": [{"setWeight": "demo-x", "weight": 5}]}} in a lesson without demo-x,
 * as its third step, gives {@code lesson error: steps[2].do[0].setWeight: no such backend in the lesson (got:
 * demo-x)}.
 */
public final class LessonReader {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Set<String> LESSON_FIELDS = ordered("title", "summary", "config", "steps");
    private static final Set<String> STEP_FIELDS = ordered("say", "do", "waitFor", "show", "expect");
    private static final Set<String> SHOW_FIELDS = ordered("view", "backend");
    private static final Set<String> TRAFFIC_FIELDS = ordered("rate", "durationMs", "keys", "distribution", "hotShare",
            "keyIn", "postShare", "seed", "maxConcurrency");
    /** Each action's verb and the fields it takes beside it. */
    private static final Map<String, Set<String>> ACTIONS = new LinkedHashMap<>();
    /** Each expectation's kind and the fields it takes beside it (a bound's fields where it takes one beside it). */
    private static final Map<String, Set<String>> EXPECTATIONS = new LinkedHashMap<>();
    private static final Set<String> BOUND_BESIDE = new LinkedHashSet<>(Bound.FIELDS);
    private static final List<String> BREAKER_STATES = List.of("CLOSED", "OPEN", "HALF_OPEN");
    private static final long MAX_TRAFFIC_MS = 60_000;

    static {
        ACTIONS.put("setWeight", ordered("weight"));
        ACTIONS.put("drain", Set.of());
        ACTIONS.put("enable", Set.of());
        ACTIONS.put("remove", Set.of());
        ACTIONS.put("add", ordered("weight", "latencyMs", "errorRate"));
        ACTIONS.put("demo", ordered("latencyMs", "errorRate", "down"));
        ACTIONS.put("strategy", Set.of());
        ACTIONS.put("traffic", Set.of());
        ACTIONS.put("stopTraffic", Set.of());
        ACTIONS.put("preview", Set.of());
        ACTIONS.put("waitMs", Set.of());

        EXPECTATIONS.put("share", BOUND_BESIDE);
        EXPECTATIONS.put("maxShare", Set.of());
        EXPECTATIONS.put("backendsUsed", Set.of());
        EXPECTATIONS.put("answers", Set.of());
        EXPECTATIONS.put("status", BOUND_BESIDE);
        EXPECTATIONS.put("p50", Set.of());
        EXPECTATIONS.put("p90", Set.of());
        EXPECTATIONS.put("p99", Set.of());
        EXPECTATIONS.put("trafficDone", Set.of());
        EXPECTATIONS.put("resent", BOUND_BESIDE);
        EXPECTATIONS.put("sentOnce", Set.of());
        EXPECTATIONS.put("breaker", ordered("is", "went"));
        EXPECTATIONS.put("state", ordered("is"));
        EXPECTATIONS.put("effectiveWeight", BOUND_BESIDE);
        EXPECTATIONS.put("previewMoved", Set.of());
        EXPECTATIONS.put("sequence", ordered("path", "headers"));
        EXPECTATIONS.put("longestRun", ordered("requests", "simulated"));
        EXPECTATIONS.put("movedKeys", ordered("keys", "onlyTo", "onlyFrom", "strays"));
        EXPECTATIONS.put("ringSpread", Set.of());
    }

    private final List<ConfigProblem> problems = new ArrayList<>();
    /** The backend ids of the lesson so far: the config's, then each step's additions. */
    private final Set<String> backends = new LinkedHashSet<>();
    private final Set<String> demos = new LinkedHashSet<>();

    private LessonReader() {
    }

    /** Reads and checks a lesson file (UTF-8); {@code name} is its base name. */
    public static Lesson read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new LessonException(List.of(new ConfigProblem(ConfigProblem.ROOT, "cannot read file: "
                    + e.getMessage(), file.toString())));
        }
        String name = file.getFileName().toString().replaceFirst("\\.json$", "");
        return parse(text, name);
    }

    /** Reads and checks a lesson from the classpath, e.g. {@code samples/lessons/breaker.json}. */
    public static Lesson readResource(String resource) {
        try (InputStream in = LessonReader.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new LessonException(List.of(new ConfigProblem(ConfigProblem.ROOT,
                        "no such resource on the classpath", resource)));
            }
            String name = resource.substring(resource.lastIndexOf('/') + 1).replaceFirst("\\.json$", "");
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), name);
        } catch (IOException e) {
            throw new LessonException(List.of(new ConfigProblem(ConfigProblem.ROOT, "cannot read resource: "
                    + e.getMessage(), resource)));
        }
    }

    /** Reads and checks a lesson given as JSON text. */
    public static Lesson parse(String json, String name) {
        JsonNode tree;
        try {
            tree = ConfigLoader.tree(json.startsWith("\uFEFF") ? json.substring(1) : json);
        } catch (ConfigException e) {
            throw new LessonException(e.problems());
        }
        return fromTree(tree, name);
    }

    /** Checks an already parsed lesson tree. */
    public static Lesson fromTree(JsonNode tree, String name) {
        LessonReader r = new LessonReader();
        Lesson lesson = r.lesson(tree, name);
        if (!r.problems.isEmpty()) {
            throw new LessonException(r.problems);
        }
        return lesson;
    }

    // ------------------------------------------------------------------ the lesson

    private Lesson lesson(JsonNode root, String name) {
        if (!root.isObject()) {
            problem(ConfigProblem.ROOT, "must be a JSON object", root.toString());
            return null;
        }
        fieldsOf(root, "", LESSON_FIELDS);
        String title = text(root, "", "title", true);
        String summary = text(root, "", "summary", true);
        FulcrumConfig config = config(root.get("config"));
        Set<String> sets = new LinkedHashSet<>();
        if (root.has("config")) {
            root.get("config").fieldNames().forEachRemaining(sets::add);
        }
        List<Step> steps = new ArrayList<>();
        JsonNode s = root.get("steps");
        if (s == null) {
            problem("steps", "required", "missing");
        } else if (!s.isArray() || s.isEmpty()) {
            problem("steps", "must be an array of at least one step", s.toString());
        } else {
            for (int i = 0; i < s.size(); i++) {
                Step step = step(s.get(i), "steps[" + i + "]");
                if (step != null) {
                    steps.add(step);
                }
            }
        }
        return problems.isEmpty() ? new Lesson(name, title, summary, config, sets, steps) : null;
    }

    /** The embedded config, through the config package's binder and validator, its paths under {@code config.}. */
    private FulcrumConfig config(JsonNode node) {
        if (node == null) {
            problem("config", "required", "missing");
            return null;
        }
        try {
            FulcrumConfig c = ConfigLoader.fromTree(node);
            for (PoolConfig pool : c.allPools().values()) {
                pool.backends().forEach(b -> backends.add(b.id()));
                pool.demoBackends().forEach(d -> {
                    backends.add(d.id());
                    demos.add(d.id());
                });
            }
            return c;
        } catch (ConfigException e) {
            for (ConfigProblem p : e.problems()) {
                String path = p.path().equals(ConfigProblem.ROOT) ? "config" : "config." + p.path();
                problems.add(new ConfigProblem(path, p.message(), p.value()));
            }
            return null;
        }
    }

    private Step step(JsonNode n, String path) {
        if (!n.isObject()) {
            problem(path, "must be an object", n.toString());
            return null;
        }
        fieldsOf(n, path, STEP_FIELDS);
        String say = text(n, path, "say", true);
        List<Action> actions = new ArrayList<>();
        JsonNode d = n.get("do");
        if (d != null) {
            if (!d.isArray()) {
                problem(child(path, "do"), "must be an array of actions", d.toString());
            } else {
                for (int i = 0; i < d.size(); i++) {
                    Action a = action(d.get(i), child(path, "do") + "[" + i + "]");
                    if (a != null) {
                        actions.add(a);
                    }
                }
            }
        }
        WaitFor waitFor = null;
        JsonNode w = n.get("waitFor");
        if (w != null) {
            waitFor = waitFor(w, child(path, "waitFor"));
        }
        Show show = null;
        JsonNode sh = n.get("show");
        if (sh != null) {
            show = show(sh, child(path, "show"));
        }
        List<Expectation> expect = new ArrayList<>();
        JsonNode e = n.get("expect");
        if (e != null) {
            if (!e.isArray()) {
                problem(child(path, "expect"), "must be an array of expectations", e.toString());
            } else {
                for (int i = 0; i < e.size(); i++) {
                    Expectation x = expectation(e.get(i), child(path, "expect") + "[" + i + "]", false);
                    if (x != null) {
                        expect.add(x);
                    }
                }
            }
        }
        return say == null ? null : new Step(say, actions, waitFor, show, expect);
    }

    private Show show(JsonNode n, String path) {
        if (!n.isObject()) {
            problem(path, "must be an object", n.toString());
            return null;
        }
        fieldsOf(n, path, SHOW_FIELDS);
        String view = text(n, path, "view", true);
        if (view != null && !Show.VIEWS.contains(view)) {
            problem(child(path, "view"), "must be one of " + String.join(", ", Show.VIEWS), view);
        }
        String backend = n.has("backend") ? backend(n, path, "backend") : null;
        return new Show(view, backend);
    }

    // ------------------------------------------------------------------ actions

    private Action action(JsonNode n, String path) {
        String verb = kind(n, path, ACTIONS, "action");
        if (verb == null) {
            return null;
        }
        String at = child(path, verb);
        JsonNode v = n.get(verb);
        switch (verb) {
            case "setWeight": {
                String id = backend(n, path, verb);
                Integer w = integer(n, path, "weight", true);
                if (w != null && Limits.weight(w) != null) {
                    problem(child(path, "weight"), Limits.weight(w), String.valueOf(w));
                }
                return id == null || w == null ? null : new Action.SetWeight(id, w);
            }
            case "drain": {
                String id = backend(n, path, verb);
                return id == null ? null : new Action.Drain(id);
            }
            case "enable": {
                String id = backend(n, path, verb);
                return id == null ? null : new Action.Enable(id);
            }
            case "remove": {
                String id = backend(n, path, verb);
                return id == null ? null : new Action.Remove(id);
            }
            case "add": {
                String id = text(n, path, verb, true);
                if (id != null && Limits.id(id) != null) {
                    problem(at, Limits.id(id), id);
                    return null;
                }
                if (id != null && backends.contains(id)) {
                    problem(at, "already a backend of the lesson", id);
                    return null;
                }
                Integer w = integer(n, path, "weight", false);
                int weight = w == null ? 1 : w;
                if (Limits.weight(weight) != null) {
                    problem(child(path, "weight"), Limits.weight(weight), String.valueOf(weight));
                }
                Double lat = number(n, path, "latencyMs", false);
                Double err = number(n, path, "errorRate", false);
                checkDemo(path, lat, err);
                if (id == null) {
                    return null;
                }
                backends.add(id);
                demos.add(id);
                return new Action.Add(id, weight, lat == null ? 0 : Math.round(lat), err == null ? 0 : err);
            }
            case "demo": {
                String id = text(n, path, verb, true);
                if (id != null && !demos.contains(id)) {
                    problem(at, "no such demo backend in the lesson", id);
                }
                Double lat = number(n, path, "latencyMs", false);
                Double err = number(n, path, "errorRate", false);
                Boolean down = bool(n, path, "down");
                checkDemo(path, lat, err);
                if (lat == null && err == null && down == null) {
                    problem(path, "needs latencyMs, errorRate or down", n.toString());
                }
                return id == null ? null : new Action.DemoFault(id, lat, err, down);
            }
            case "strategy": {
                try {
                    StrategySpec spec = ConfigLoader.parseStrategy(v, at);
                    @SuppressWarnings("unchecked")
                    Map<String, Object> m = MAPPER.convertValue(ConfigWriter.toTree(spec), Map.class);
                    return new Action.SwitchStrategy(m);
                } catch (ConfigException e) {
                    problems.addAll(e.problems());
                    return null;
                }
            }
            case "traffic":
                return traffic(v, at);
            case "stopTraffic":
                if (!v.isBoolean() || !v.booleanValue()) {
                    problem(at, "must be true", v.toString());
                }
                return new Action.StopTraffic();
            case "preview":
                return preview(v, at);
            case "waitMs": {
                Long ms = longIn(v, at, 1, MAX_TRAFFIC_MS);
                return ms == null ? null : new Action.Wait(ms);
            }
            default:
                throw new IllegalStateException(verb);
        }
    }

    private void checkDemo(String path, Double latencyMs, Double errorRate) {
        if (latencyMs != null && Limits.demoLatencyMs(latencyMs) != null) {
            problem(child(path, "latencyMs"), Limits.demoLatencyMs(latencyMs), Bound.number(latencyMs));
        }
        if (errorRate != null && Limits.rate(errorRate) != null) {
            problem(child(path, "errorRate"), Limits.rate(errorRate), Bound.number(errorRate));
        }
    }

    private Action traffic(JsonNode n, String path) {
        if (!n.isObject()) {
            problem(path, "must be an object", n.toString());
            return null;
        }
        fieldsOf(n, path, TRAFFIC_FIELDS);
        TrafficPlan d = TrafficPlan.DEFAULTS;
        Double rate = number(n, path, "rate", true);
        if (rate != null && !(rate >= 1 && rate <= 5000)) {
            problem(child(path, "rate"), "must be between 1 and 5000", Bound.number(rate));
        }
        Long duration = n.has("durationMs") ? longIn(n.get("durationMs"), child(path, "durationMs"), 100,
                MAX_TRAFFIC_MS) : null;
        if (!n.has("durationMs")) {
            problem(child(path, "durationMs"), "required", "missing");
        }
        Integer keys = integer(n, path, "keys", false);
        if (keys != null && !(keys >= 1 && keys <= 1_000_000)) {
            problem(child(path, "keys"), "must be between 1 and 1000000", String.valueOf(keys));
        }
        String distribution = text(n, path, "distribution", false);
        if (distribution != null && !TrafficPlan.DISTRIBUTIONS.contains(distribution)) {
            problem(child(path, "distribution"), "must be one of " + String.join(", ", TrafficPlan.DISTRIBUTIONS),
                    distribution);
        }
        Double hot = number(n, path, "hotShare", false);
        if (hot != null && !(hot > 0 && hot < 1)) {
            problem(child(path, "hotShare"), "must be above 0 and below 1", Bound.number(hot));
        }
        String keyIn = text(n, path, "keyIn", false);
        if (keyIn != null && (keyIn.equals("ip") || Limits.hashKey(keyIn) != null)) {
            problem(child(path, "keyIn"), "must be one of path, header:NAME, cookie:NAME, query:NAME", keyIn);
        }
        Double post = number(n, path, "postShare", false);
        if (post != null && Limits.rate(post) != null) {
            problem(child(path, "postShare"), Limits.rate(post), Bound.number(post));
        }
        Long seed = n.has("seed") ? longIn(n.get("seed"), child(path, "seed"), Long.MIN_VALUE, Long.MAX_VALUE) : null;
        Integer conc = integer(n, path, "maxConcurrency", false);
        if (conc != null && !(conc >= 1 && conc <= 10_000)) {
            problem(child(path, "maxConcurrency"), "must be between 1 and 10000", String.valueOf(conc));
        }
        if (rate == null || duration == null) {
            return null;
        }
        return new Action.Traffic(new TrafficPlan(rate, duration, keys == null ? d.keys() : keys,
                distribution == null ? d.distribution() : distribution, hot == null ? d.hotShare() : hot,
                keyIn == null ? d.keyIn() : keyIn, post == null ? d.postShare() : post, seed == null ? d.seed() : seed,
                conc == null ? d.maxConcurrency() : conc));
    }

    private Action preview(JsonNode n, String path) {
        if (!n.isObject() || n.size() != 1) {
            problem(path, "must be an object with one of remove, add, weights", n.toString());
            return null;
        }
        fieldsOf(n, path, ordered("remove", "add", "weights"));
        if (n.has("remove")) {
            JsonNode r = n.get("remove");
            List<String> ids = new ArrayList<>();
            if (!r.isArray() || r.isEmpty()) {
                problem(child(path, "remove"), "must be an array of backend ids", r.toString());
                return null;
            }
            for (int i = 0; i < r.size(); i++) {
                String at = child(path, "remove") + "[" + i + "]";
                if (!r.get(i).isTextual()) {
                    problem(at, "must be a string", r.get(i).toString());
                } else if (!backends.contains(r.get(i).textValue())) {
                    problem(at, "no such backend in the lesson", r.get(i).textValue());
                } else {
                    ids.add(r.get(i).textValue());
                }
            }
            return new Action.Preview(ids, null, null);
        }
        String field = n.has("add") ? "add" : "weights";
        JsonNode m = n.get(field);
        if (m == null) {
            return null;
        }
        if (!m.isObject() || m.isEmpty()) {
            problem(child(path, field), "must be an object of backend ids and weights", m.toString());
            return null;
        }
        Map<String, Integer> weights = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : m.properties()) {
            String at = child(child(path, field), e.getKey());
            if (field.equals("weights") && !backends.contains(e.getKey())) {
                problem(at, "no such backend in the lesson", e.getKey());
            } else if (field.equals("add") && Limits.id(e.getKey()) != null) {
                problem(at, Limits.id(e.getKey()), e.getKey());
            }
            Long w = longIn(e.getValue(), at, 0, 1000);
            if (w != null) {
                weights.put(e.getKey(), w.intValue());
            }
        }
        return field.equals("add") ? new Action.Preview(null, weights, null) : new Action.Preview(null, null, weights);
    }

    // ------------------------------------------------------------------ expectations and waits

    private WaitFor waitFor(JsonNode n, String path) {
        if (!n.isObject()) {
            problem(path, "must be an object", n.toString());
            return null;
        }
        Long timeout = null;
        if (!n.has("timeoutMs")) {
            problem(child(path, "timeoutMs"), "required: every wait has a timeout", "missing");
        } else {
            timeout = longIn(n.get("timeoutMs"), child(path, "timeoutMs"), 1, WaitFor.MAX_TIMEOUT_MS);
        }
        com.fasterxml.jackson.databind.node.ObjectNode rest = ((com.fasterxml.jackson.databind.node.ObjectNode) n)
                .deepCopy();
        rest.remove("timeoutMs");
        Expectation e = expectation(rest, path, true);
        if (e != null && !e.passive()) {
            problem(path, "a wait takes a condition the engine and the traffic show (not one that sends or walks)",
                    rest.toString());
            return null;
        }
        return e == null || timeout == null ? null : new WaitFor(e, timeout);
    }

    private Expectation expectation(JsonNode n, String path, boolean forWait) {
        Map<String, Set<String>> kinds = EXPECTATIONS;
        String kind = kind(n, path, kinds, forWait ? "condition" : "expectation");
        if (kind == null) {
            return null;
        }
        String at = child(path, kind);
        JsonNode v = n.get(kind);
        switch (kind) {
            case "share": {
                String id = backend(n, path, kind);
                Bound b = boundBeside(n, path);
                return id == null || b == null ? null : new Expectation.Share(id, b);
            }
            case "maxShare": {
                Bound b = bound(v, at);
                return b == null ? null : new Expectation.MaxShare(b);
            }
            case "backendsUsed": {
                Bound b = bound(v, at);
                return b == null ? null : new Expectation.BackendsUsed(b);
            }
            case "answers": {
                if (v.isIntegralNumber()) {
                    Long min = longIn(v, at, 1, Integer.MAX_VALUE);
                    return min == null ? null : new Expectation.Answered(Bound.atLeast(min));
                }
                Bound b = bound(v, at);
                return b == null ? null : new Expectation.Answered(b);
            }
            case "status": {
                Long status = longIn(v, at, 100, 599);
                Bound b = boundBeside(n, path);
                return status == null || b == null ? null : new Expectation.Status(status.intValue(), b);
            }
            case "p50":
            case "p90":
            case "p99": {
                Bound b = bound(v, at);
                return b == null ? null : new Expectation.Latency(kind, b);
            }
            case "trafficDone":
                if (!v.isBoolean() || !v.booleanValue()) {
                    problem(at, "must be true", v.toString());
                    return null;
                }
                return new Expectation.TrafficDone();
            case "resent": {
                String method = method(v, at);
                Bound b = boundBeside(n, path);
                return method == null || b == null ? null : new Expectation.Resent(method, b);
            }
            case "sentOnce": {
                String method = method(v, at);
                return method == null ? null : new Expectation.SentOnce(method);
            }
            case "breaker": {
                String id = backend(n, path, kind);
                if (n.has("is") == n.has("went")) {
                    problem(path, "needs is or went (one of them)", n.toString());
                    return null;
                }
                if (n.has("is")) {
                    String s = oneOf(n.get("is"), child(path, "is"), BREAKER_STATES);
                    return id == null || s == null ? null : new Expectation.BreakerIs(id, s);
                }
                JsonNode went = n.get("went");
                List<String> states = new ArrayList<>();
                if (!went.isArray() || went.isEmpty()) {
                    problem(child(path, "went"), "must be an array of breaker states", went.toString());
                    return null;
                }
                for (int i = 0; i < went.size(); i++) {
                    String s = oneOf(went.get(i), child(path, "went") + "[" + i + "]", BREAKER_STATES);
                    if (s != null) {
                        states.add(s);
                    }
                }
                return id == null || states.size() != went.size() ? null : new Expectation.BreakerWent(id, states);
            }
            case "state": {
                String id = backend(n, path, kind);
                if (!n.has("is")) {
                    problem(child(path, "is"), "required", "missing");
                    return null;
                }
                List<String> states = java.util.Arrays.stream(BackendState.values()).map(Enum::name).toList();
                String s = oneOf(n.get("is"), child(path, "is"), states);
                return id == null || s == null ? null : new Expectation.StateIs(id, s);
            }
            case "effectiveWeight": {
                String id = backend(n, path, kind);
                Bound b = boundBeside(n, path);
                return id == null || b == null ? null : new Expectation.EffectiveWeight(id, b);
            }
            case "previewMoved": {
                Bound b = bound(v, at);
                return b == null ? null : new Expectation.PreviewMoved(b);
            }
            case "sequence":
                return sequence(n, path);
            case "longestRun": {
                Bound b = bound(v, at);
                Integer requests = integer(n, path, "requests", false);
                int count = requests == null ? 70 : requests;
                if (count < 2 || count > 10_000) {
                    problem(child(path, "requests"), "must be between 2 and 10000", String.valueOf(count));
                }
                String simulated = text(n, path, "simulated", false);
                if (simulated != null && !simulated.equals(Expectation.SimulatedLongestRun.NAIVE)
                        && (!StrategySpec.TYPES.contains(simulated) || simulated.equals(StrategySpec.ADAPTIVE))) {
                    problem(child(path, "simulated"), "must be a strategy type but adaptive, or "
                            + Expectation.SimulatedLongestRun.NAIVE, simulated);
                    return null;
                }
                if (b == null) {
                    return null;
                }
                return simulated == null ? new Expectation.LongestRun(b, count)
                        : new Expectation.SimulatedLongestRun(simulated, b, count);
            }
            case "movedKeys": {
                Bound b = bound(v, at);
                Integer keys = integer(n, path, "keys", false);
                int count = keys == null ? 1000 : keys;
                if (count < 10 || count > 100_000) {
                    problem(child(path, "keys"), "must be between 10 and 100000", String.valueOf(count));
                }
                String to = n.has("onlyTo") ? backend(n, path, "onlyTo") : null;
                String from = n.has("onlyFrom") ? backend(n, path, "onlyFrom") : null;
                if (to != null && from != null) {
                    problem(path, "takes onlyTo or onlyFrom, not both", n.toString());
                }
                Bound strays = Bound.atMost(0);
                if (n.has("strays")) {
                    if (to == null && from == null) {
                        problem(child(path, "strays"), "needs onlyTo or onlyFrom", n.get("strays").toString());
                    }
                    strays = bound(n.get("strays"), child(path, "strays"));
                }
                return b == null || strays == null ? null : new Expectation.MovedKeys(b, count, to, from, strays);
            }
            case "ringSpread": {
                Bound b = bound(v, at);
                return b == null ? null : new Expectation.RingSpread(b);
            }
            default:
                throw new IllegalStateException(kind);
        }
    }

    private Expectation sequence(JsonNode n, String path) {
        JsonNode v = n.get("sequence");
        String at = child(path, "sequence");
        if (!v.isArray() || v.size() < 2) {
            problem(at, "must be an array of at least two backend ids", v.toString());
            return null;
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode e = v.get(i);
            if (!e.isTextual()) {
                problem(at + "[" + i + "]", "must be a string", e.toString());
            } else if (!backends.contains(e.textValue())) {
                problem(at + "[" + i + "]", "no such backend in the lesson", e.textValue());
            } else {
                ids.add(e.textValue());
            }
        }
        String requestPath = text(n, path, "path", false);
        if (requestPath != null && !requestPath.startsWith("/")) {
            problem(child(path, "path"), "must start with /", requestPath);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        JsonNode h = n.get("headers");
        if (h != null) {
            if (!h.isObject()) {
                problem(child(path, "headers"), "must be an object of header names and values", h.toString());
            } else {
                for (Map.Entry<String, JsonNode> e : h.properties()) {
                    String hp = child(child(path, "headers"), e.getKey());
                    if (!Limits.TOKEN.matcher(e.getKey()).matches()) {
                        problem(hp, "must be a header name (a token)", e.getKey());
                    } else if (!e.getValue().isTextual()) {
                        problem(hp, "must be a string", e.getValue().toString());
                    } else {
                        headers.put(e.getKey(), e.getValue().textValue());
                    }
                }
            }
        }
        return ids.size() != v.size() ? null
                : new Expectation.Sequence(ids, requestPath == null ? "/" : requestPath, headers);
    }

    /** A bound written as the kind's own value, e.g. {@code "p99": {"below": 100}}. */
    private Bound bound(JsonNode n, String path) {
        if (!n.isObject()) {
            problem(path, "must be a bound: {\"between\": [low, high]}, {\"above\": x}, {\"below\": x},"
                    + " {\"atLeast\": x} or {\"atMost\": x}", n.toString());
            return null;
        }
        fieldsOf(n, path, BOUND_BESIDE);
        return boundBeside(n, path);
    }

    /** A bound written beside the kind, e.g. {@code {"share": "demo-c", "between": [0.09, 0.13]}}. */
    private Bound boundBeside(JsonNode n, String path) {
        List<String> given = Bound.FIELDS.stream().filter(n::has).toList();
        if (given.size() != 1) {
            problem(path, "needs exactly one bound of " + String.join(", ", Bound.FIELDS), given.isEmpty() ? "none"
                    : String.join(", ", given));
            return null;
        }
        String f = given.get(0);
        JsonNode v = n.get(f);
        String at = child(path, f);
        if (f.equals("between")) {
            if (!v.isArray() || v.size() != 2 || !v.get(0).isNumber() || !v.get(1).isNumber()) {
                problem(at, "must be [low, high], two numbers", v.toString());
                return null;
            }
            double lo = v.get(0).doubleValue();
            double hi = v.get(1).doubleValue();
            if (lo > hi) {
                problem(at, "low must not be above high", v.toString());
                return null;
            }
            return Bound.between(lo, hi);
        }
        if (!v.isNumber()) {
            problem(at, "must be a number", v.toString());
            return null;
        }
        double x = v.doubleValue();
        return switch (f) {
            case "above" -> Bound.above(x);
            case "below" -> Bound.below(x);
            case "atLeast" -> Bound.atLeast(x);
            default -> Bound.atMost(x);
        };
    }

    // ------------------------------------------------------------------ small readers

    /** The one kind (verb) field of an action or expectation, with the fields that kind takes beside it checked. */
    private String kind(JsonNode n, String path, Map<String, Set<String>> kinds, String what) {
        if (!n.isObject()) {
            problem(path, "must be an object", n.toString());
            return null;
        }
        List<String> named = new ArrayList<>();
        n.fieldNames().forEachRemaining(f -> {
            if (kinds.containsKey(f)) {
                named.add(f);
            }
        });
        if (named.size() != 1) {
            problem(path, named.isEmpty() ? "must name one " + what + ": " + String.join(", ", kinds.keySet())
                    : "names more than one " + what, named.isEmpty() ? n.toString() : String.join(", ", named));
            return null;
        }
        String kind = named.get(0);
        Set<String> known = new LinkedHashSet<>();
        known.add(kind);
        known.addAll(kinds.get(kind));
        fieldsOf(n, path, known);
        return kind;
    }

    private void fieldsOf(JsonNode n, String path, Set<String> known) {
        n.fieldNames().forEachRemaining(f -> {
            if (!known.contains(f)) {
                problem(child(path, f), dev.fulcrum.config.JsonBinder.unknownField(f, known), n.get(f).toString());
            }
        });
    }

    /** A backend id of the lesson in {@code field}. */
    private String backend(JsonNode n, String path, String field) {
        String id = text(n, path, field, true);
        if (id != null && !backends.contains(id)) {
            problem(child(path, field), "no such backend in the lesson", id);
            return null;
        }
        return id;
    }

    private String text(JsonNode n, String path, String field, boolean required) {
        JsonNode v = n.get(field);
        if (v == null) {
            if (required) {
                problem(child(path, field), "required", "missing");
            }
            return null;
        }
        if (!v.isTextual() || v.textValue().isBlank()) {
            problem(child(path, field), "must be a non-empty string", v.toString());
            return null;
        }
        return v.textValue();
    }

    private Integer integer(JsonNode n, String path, String field, boolean required) {
        JsonNode v = n.get(field);
        if (v == null) {
            if (required) {
                problem(child(path, field), "required", "missing");
            }
            return null;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt()) {
            problem(child(path, field), "must be an integer", v.toString());
            return null;
        }
        return v.intValue();
    }

    private Double number(JsonNode n, String path, String field, boolean required) {
        JsonNode v = n.get(field);
        if (v == null) {
            if (required) {
                problem(child(path, field), "required", "missing");
            }
            return null;
        }
        if (!v.isNumber()) {
            problem(child(path, field), "must be a number", v.toString());
            return null;
        }
        return v.doubleValue();
    }

    private Boolean bool(JsonNode n, String path, String field) {
        JsonNode v = n.get(field);
        if (v == null) {
            return null;
        }
        if (!v.isBoolean()) {
            problem(child(path, field), "must be true or false", v.toString());
            return null;
        }
        return v.booleanValue();
    }

    private Long longIn(JsonNode v, String path, long min, long max) {
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            problem(path, "must be an integer", v.toString());
            return null;
        }
        long x = v.longValue();
        if (x < min || x > max) {
            problem(path, "must be between " + min + " and " + max, String.valueOf(x));
            return null;
        }
        return x;
    }

    private String method(JsonNode v, String path) {
        return oneOf(v, path, List.of("GET", "POST"));
    }

    private String oneOf(JsonNode v, String path, List<String> allowed) {
        if (!v.isTextual()) {
            problem(path, "must be a string", v.toString());
            return null;
        }
        if (!allowed.contains(v.textValue())) {
            problem(path, "must be one of " + String.join(", ", allowed), v.textValue());
            return null;
        }
        return v.textValue();
    }

    private void problem(String path, String message, String value) {
        problems.add(new ConfigProblem(path.isEmpty() ? ConfigProblem.ROOT : path, message, value));
    }

    private static String child(String parent, String name) {
        return parent.isEmpty() ? name : parent + "." + name;
    }

    private static Set<String> ordered(String... names) {
        return new LinkedHashSet<>(List.of(names));
    }
}
