package dev.fulcrum.lesson;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fulcrum.config.ConfigException;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.ConfigProblem;
import dev.fulcrum.config.ConfigWriter;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.config.JsonBinder;
import dev.fulcrum.config.PoolConfig;
import dev.fulcrum.engine.strategy.StrategySpec;
import dev.fulcrum.i18n.LocalText;
import dev.fulcrum.rules.Limits;
import dev.fulcrum.rules.Range;
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
 * Reads a lesson file (docs/REFERENCE.md §5) and checks all of it, collecting every problem by JSON path, and throwing
 * one {@link LessonException} with them all. This class is the grammar of a lesson, its steps and their actions
 * (which fields each has, which verb names an action); {@link ExpectationReader} is that of what a step expects and
 * waits for. Every value is read by the config's rules ({@link JsonBinder}), so a lesson refuses what a config file or
 * an admin request body refuses, in the same words; the records an action or a step's parts are made of
 * ({@link Action.SetWeight}, {@link TrafficPlan}, {@link Show}, ...) are filled by the binder from their components,
 * as the config's are, and then checked for meaning (limits, backends of the lesson). The
 * embedded {@code config} goes through the config package's own reader and validator ({@link ConfigLoader#fromTree})
 * and its problems get {@code config.} in front of their paths; strategy objects in a step go through
 * {@link ConfigLoader#parseStrategy}. Backend ids a step names must be the config's or added by an earlier step.
 *
 * <p>Example: a step {@code {"say": "…", "do": [{"setWeight": "demo-x", "weight": 5}]}} in a lesson without demo-x,
 * as its third step, gives {@code lesson error: steps[2].do[0].setWeight: no such backend in the lesson (got:
 * demo-x)}; {@code "weight": 5.0} gives {@code steps[2].do[0].weight: must be an integer (got: 5.0)}, as a config's
 * {@code backends[0].weight} would.
 */
public final class LessonReader {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final List<String> LESSON_FIELDS = List.of("title", "summary", "config", "steps");
    private static final List<String> STEP_FIELDS = List.of("say", "do", "waitFor", "show", "expect");
    /** The languages a lesson's texts may be given in: the window's ({@link dev.fulcrum.i18n.Texts#LANGUAGES}). */
    static final List<String> LANGUAGES = List.of("en", "zh", "pl");
    private static final List<String> PREVIEW_FIELDS = List.of("remove", "add", "weights");
    /** Each action's verb, and the record the binder fills for it (the verb names its backend), or null. */
    private static final Map<String, Class<?>> ACTIONS = new LinkedHashMap<>();
    private static final long MAX_TRAFFIC_MS = 60_000;

    /** How the binder fills a lesson's records: the fields each must write, its defaults, its verb. */
    private static final JsonBinder.Shape<?>[] SHAPES = {
        JsonBinder.Shape.of(Show.class, null, "view"),
        JsonBinder.Shape.of(TrafficPlan.class, TrafficPlan.DEFAULTS, "rate", "durationMs"),
        JsonBinder.Shape.of(Action.SetWeight.class, null, "weight").named("backend", "setWeight"),
        JsonBinder.Shape.of(Action.Drain.class, null).named("backend", "drain"),
        JsonBinder.Shape.of(Action.Enable.class, null).named("backend", "enable"),
        JsonBinder.Shape.of(Action.Remove.class, null).named("backend", "remove"),
        JsonBinder.Shape.of(Action.Add.class, new Action.Add(null, 1, 0, 0)).named("backend", "add"),
        JsonBinder.Shape.of(Action.DemoFault.class, null).named("backend", "demo"),
        JsonBinder.Shape.of(Action.SetSplit.class, null, "weights").named("route", "split"),
        JsonBinder.Shape.of(Action.Promote.class, null).named("route", "promote"),
        JsonBinder.Shape.of(Action.Rollback.class, null).named("route", "rollback"),
    };

    static {
        ACTIONS.put("setWeight", Action.SetWeight.class);
        ACTIONS.put("drain", Action.Drain.class);
        ACTIONS.put("enable", Action.Enable.class);
        ACTIONS.put("remove", Action.Remove.class);
        ACTIONS.put("add", Action.Add.class);
        ACTIONS.put("demo", Action.DemoFault.class);
        ACTIONS.put("split", Action.SetSplit.class);
        ACTIONS.put("promote", Action.Promote.class);
        ACTIONS.put("rollback", Action.Rollback.class);
        for (String verb : List.of("strategy", "traffic", "stopTraffic", "preview", "waitMs", "config")) {
            ACTIONS.put(verb, null);
        }
    }

    private final List<ConfigProblem> problems = new ArrayList<>();
    private final JsonBinder json = new JsonBinder(problems, SHAPES);
    /** The backend ids of the lesson so far: the config's, then each step's additions. */
    private final Set<String> backends = new LinkedHashSet<>();
    private final Set<String> demos = new LinkedHashSet<>();
    /** The lesson's own config as written, which a step's config action must leave valid. */
    private JsonNode lessonConfig;
    /** The config as the steps so far leave it (their config actions merged in), which routes and pools they have. */
    private JsonNode currentConfig;
    /** The pool names of the lesson so far ({@code default} and its {@code pools}). */
    private final Set<String> pools = new LinkedHashSet<>();
    /** The routes of the lesson so far, as the config the steps so far leave them. */
    private final List<dev.fulcrum.config.RouteConfig> routes = new ArrayList<>();
    /** The traffic classes the steps so far send ({@code classes} of a traffic action). */
    private final Set<String> classes = new LinkedHashSet<>();
    /** A step's expectations and wait, and the small parts of the grammar its actions share. */
    private final ExpectationReader grammar = new ExpectationReader(json, backends, pools, routes, classes);

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

    /** Reads and checks a lesson given as JSON text (strictly, as a config: a field given twice is an error). */
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

    // ------------------------------------------------------------------ the lesson and its steps

    private Lesson lesson(JsonNode root, String name) {
        if (!root.isObject()) {
            problems.add(new ConfigProblem(ConfigProblem.ROOT, "must be a JSON object", root.toString()));
            return null;
        }
        json.object(root, ConfigProblem.ROOT, LESSON_FIELDS, "title", "summary", "config", "steps");
        LocalText title = text(root, ConfigProblem.ROOT, "title");
        LocalText summary = text(root, ConfigProblem.ROOT, "summary");
        JsonNode c = root.get("config");
        lessonConfig = c;
        currentConfig = c;
        FulcrumConfig config = c == null ? null : config(c);
        if (config != null) {
            scope(config);
        }
        Set<String> sets = new LinkedHashSet<>();
        if (c != null) {
            c.fieldNames().forEachRemaining(sets::add);
        }
        List<Step> steps = list(root, ConfigProblem.ROOT, "steps", this::step);
        if (steps != null && steps.isEmpty() && root.get("steps").isEmpty()) {
            json.refuse("steps", "must be an array of at least one step", root.get("steps"));
        }
        return problems.isEmpty() ? new Lesson(name, title, summary, config, sets, steps) : null;
    }

    /** The pools and routes the steps from here on see: {@code config}'s (pools only grow: a step may name one gone). */
    private void scope(FulcrumConfig config) {
        pools.addAll(config.allPools().keySet());
        routes.clear();
        routes.addAll(config.routes());
    }

    /** The embedded config, through the config package's binder and validator, its paths under {@code config.}. */
    private FulcrumConfig config(JsonNode node) {
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
        if (!json.object(n, path, STEP_FIELDS, "say")) {
            return null;
        }
        LocalText say = text(n, path, "say");
        List<Action> actions = list(n, path, "do", this::action);
        WaitFor waitFor = n.has("waitFor") ? grammar.waitFor(n.get("waitFor"), child(path, "waitFor")) : null;
        Show show = n.has("show") ? show(n.get("show"), child(path, "show")) : null;
        List<Expectation> expect = list(n, path, "expect", (e, at) -> grammar.expectation(e, at, false));
        return say == null ? null : new Step(say, actions == null ? List.of() : actions, waitFor, show,
                expect == null ? List.of() : expect);
    }

    private Show show(JsonNode n, String path) {
        Show s = json.bind(n, Show.class, path);
        if (s != null && present(s.view(), child(path, "view"))) {
            json.oneOf(s.view(), child(path, "view"), Show.VIEWS);
        }
        if (s != null && s.backend() != null) {
            grammar.known(s.backend(), child(path, "backend"));
        }
        return s;
    }

    // ------------------------------------------------------------------ actions

    private Action action(JsonNode n, String path) {
        String verb = grammar.kind(n, path, ACTIONS.keySet(), "action");
        if (verb == null) {
            return null;
        }
        String at = child(path, verb);
        Class<?> record = ACTIONS.get(verb);
        if (record != null) {
            Object a = json.bind(n, record, path);
            check(a, n, path, at);
            return (Action) a;
        }
        json.object(n, path, List.of(verb));
        JsonNode v = n.get(verb);
        switch (verb) {
            case "strategy":
                try {
                    StrategySpec spec = ConfigLoader.parseStrategy(v, at);
                    @SuppressWarnings("unchecked")
                    Map<String, Object> m = MAPPER.convertValue(ConfigWriter.toTree(spec), Map.class);
                    return new Action.SwitchStrategy(m);
                } catch (ConfigException e) {
                    problems.addAll(e.problems());
                    return null;
                }
            case "traffic":
                return traffic(v, at);
            case "stopTraffic":
                return grammar.isTrue(v, at) ? new Action.StopTraffic() : null;
            case "preview":
                return preview(v, at);
            case "waitMs": {
                Long ms = json.integerIn(v, at, 1, MAX_TRAFFIC_MS);
                return ms == null ? null : new Action.Wait(ms);
            }
            case "config":
                return configPatch(v, at);
            default:
                throw new IllegalStateException(verb);
        }
    }

    /** The meaning of an action the binder filled: the backends it names, and the limits on what it sets. */
    private void check(Object a, JsonNode n, String path, String at) {
        if (a instanceof Action.SetWeight w) {
            backend(w.backend(), at);
            json.refuse(child(path, "weight"), Limits.weight(w.weight()), w.weight());
        } else if (a instanceof Action.Drain d) {
            backend(d.backend(), at);
        } else if (a instanceof Action.Enable e) {
            backend(e.backend(), at);
        } else if (a instanceof Action.Remove r) {
            backend(r.backend(), at);
        } else if (a instanceof Action.Add add) {
            String id = add.backend();
            if (present(id, at) && !json.refuse(at, Limits.id(id), id)
                    && !json.refuse(at, backends.contains(id) ? "already a backend of the lesson" : null, id)) {
                backends.add(id);
                demos.add(id);
            }
            json.refuse(child(path, "weight"), Limits.weight(add.weight()), add.weight());
            demoFaults(path, (double) add.latencyMs(), add.errorRate());
        } else if (a instanceof Action.SetSplit sp) {
            dev.fulcrum.config.RouteConfig r = splitRoute(sp.route(), at);
            List<Integer> w = sp.weights();
            String wp = child(path, "weights");
            if (w != null && r != null && w.size() != r.split().size()) {
                json.refuse(wp, "must give one weight per arm of route " + sp.route() + ", " + r.split().size()
                        + " (" + String.join(", ", r.split().stream().map(dev.fulcrum.config.SplitArmConfig::pool)
                        .toList()) + ")", n.get("weights"));
            }
            if (w != null) {
                for (int i = 0; i < w.size(); i++) {
                    json.refuse(JsonBinder.index(wp, i), Limits.splitWeightProblem(w.get(i)), w.get(i));
                }
                if (!w.isEmpty() && w.stream().allMatch(x -> x <= 0)) {
                    json.refuse(wp, "at least one weight must be above 0", n.get("weights"));
                }
            }
        } else if (a instanceof Action.Promote p) {
            splitRoute(p.route(), at);
        } else if (a instanceof Action.Rollback r) {
            splitRoute(r.route(), at);
        } else if (a instanceof Action.DemoFault d) {
            if (present(d.backend(), at)) {
                json.refuse(at, demos.contains(d.backend()) ? null : "no such demo backend in the lesson", d.backend());
            }
            demoFaults(path, d.latencyMs(), d.errorRate());
            if (d.latencyMs() == null && d.errorRate() == null && d.down() == null) {
                json.refuse(path, "needs latencyMs, errorRate or down", n);
            }
        }
    }

    /** Route {@code index} of the lesson so far when it has a split; null after saying why not. */
    private dev.fulcrum.config.RouteConfig splitRoute(int index, String path) {
        if (index < 0 || index >= routes.size()) {
            json.refuse(path, routes.isEmpty() ? "no such route: the lesson has no routes"
                    : "no such route, the lesson's are 0-" + (routes.size() - 1), index);
            return null;
        }
        dev.fulcrum.config.RouteConfig r = routes.get(index);
        return json.refuse(path, r.split() == null ? "route " + index + " has no split" : null, index) ? null : r;
    }

    private void demoFaults(String path, Double latencyMs, Double errorRate) {
        if (latencyMs != null) {
            json.refuse(child(path, "latencyMs"), Limits.demoLatencyMs(latencyMs), latencyMs);
        }
        if (errorRate != null) {
            json.refuse(child(path, "errorRate"), Limits.rate(errorRate), errorRate);
        }
    }

    /**
     * A config action: an object merged into the lesson's own config must still be a valid config (checked by the
     * config's reader, its problems at this action's path); the engine checks it again against what it runs.
     */
    private Action configPatch(JsonNode v, String path) {
        if (!v.isObject() || v.isEmpty()) {
            json.refuse(path, "must be a non-empty JSON object (a merge patch of the config)", v);
            return null;
        }
        if (lessonConfig != null) {
            try {
                ConfigLoader.fromTree(ConfigPatch.merge(lessonConfig.deepCopy(), v));
            } catch (ConfigException e) {
                for (ConfigProblem p : e.problems()) {
                    problems.add(new ConfigProblem(p.path().equals(ConfigProblem.ROOT) ? path : path + "." + p.path(),
                            p.message(), p.value()));
                }
                return null;
            }
            try {
                JsonNode merged = ConfigPatch.merge(currentConfig.deepCopy(), v);
                scope(ConfigLoader.fromTree(merged));
                currentConfig = merged;
            } catch (ConfigException e) {
                // valid on the lesson's own config, not on top of the steps before: the engine says so when it runs
            }
        }
        return new Action.Config(v.deepCopy());
    }

    private Action traffic(JsonNode n, String path) {
        TrafficPlan t = json.bind(n, TrafficPlan.class, path);
        if (t == null) {
            return null;
        }
        json.refuse(child(path, "rate"), t.rate() >= 1 && t.rate() <= 5000 ? null : "must be between 1 and 5000",
                t.rate());
        json.refuse(child(path, "durationMs"), new Range(100, MAX_TRAFFIC_MS).problem(t.durationMs()), t.durationMs());
        json.refuse(child(path, "keys"), new Range(1, 1_000_000).problem(t.keys()), t.keys());
        json.oneOf(t.distribution(), child(path, "distribution"), TrafficPlan.DISTRIBUTIONS);
        json.refuse(child(path, "hotShare"), t.hotShare() > 0 && t.hotShare() < 1 ? null
                : "must be above 0 and below 1", t.hotShare());
        String keyIn = t.keyIn();
        json.refuse(child(path, "keyIn"), keyIn == null || keyIn.equals("ip") || Limits.hashKey(keyIn) != null
                ? "must be one of path, header:NAME, cookie:NAME, query:NAME" : null, keyIn);
        json.refuse(child(path, "postShare"), Limits.rate(t.postShare()), t.postShare());
        json.refuse(child(path, "maxConcurrency"), new Range(1, 10_000).problem(t.maxConcurrency()),
                t.maxConcurrency());
        trafficClasses(t, n, path);
        return new Action.Traffic(t);
    }

    /**
     * A plan's traffic classes: names as a route's {@code class} is named, each weight above 0, and the header they go
     * in, a header name other than the key's.
     */
    private void trafficClasses(TrafficPlan t, JsonNode n, String path) {
        String hp = child(path, "classHeader");
        if (t.classes() == null) {
            json.refuse(hp, t.classHeader() == null ? null : "only with classes", t.classHeader());
            return;
        }
        String cp = child(path, "classes");
        if (t.classes().isEmpty()) {
            json.refuse(cp, "must name at least one class", n.get("classes"));
        }
        t.classes().forEach((name, w) -> {
            String at = child(cp, name);
            if (!json.refuse(at, dev.fulcrum.rules.Limits.ROUTE_CLASS.matcher(name).matches() ? null
                    : "class name " + dev.fulcrum.rules.Limits.ROUTE_CLASS_RULE, name)
                    && !json.refuse(at, w != null && w > 0 ? null : "must be a weight above 0", w)) {
                classes.add(name);
            }
        });
        if (t.classHeader() == null) {
            json.refuse(hp, "required with classes: the header each request's class is sent in", "missing");
        } else if (!Limits.TOKEN.matcher(t.classHeader()).matches()) {
            json.refuse(hp, "must be a header name (a token)", t.classHeader());
        } else if (t.keyIn() != null && t.keyIn().equalsIgnoreCase("header:" + t.classHeader())) {
            json.refuse(hp, "must be another header than the key's (keyIn " + t.keyIn() + ")", t.classHeader());
        }
    }

    /** The what-if of §4's preview: exactly one of remove (ids of the lesson), add or weights (ids to weights). */
    private Action preview(JsonNode n, String path) {
        if (!json.object(n, path, PREVIEW_FIELDS)) {
            return null;
        }
        List<String> given = PREVIEW_FIELDS.stream().filter(n::has).toList();
        if (n.size() != 1 || given.size() != 1) {
            json.refuse(path, "must be an object with one of remove, add, weights", n);
            return null;
        }
        String field = given.get(0);
        String at = child(path, field);
        JsonNode v = n.get(field);
        if (field.equals("remove")) {
            List<String> ids = json.list(v, at, (id, p) -> grammar.known(json.string(id, p), p));
            if (ids != null && v.isEmpty()) {
                json.refuse(at, "must be an array of backend ids", v);
            }
            return new Action.Preview(ids, null, null);
        }
        Map<String, Integer> weights = json.map(v, at, (w, p) -> {
            Integer x = json.integer(w, p);
            return x == null || json.refuse(p, Limits.weight(x), x) ? null : x;
        });
        if (weights == null) {
            return null;
        }
        if (v.isEmpty()) {
            json.refuse(at, "must be an object of backend ids and weights", v);
        }
        for (String id : weights.keySet()) {
            if (field.equals("weights")) {
                grammar.known(id, child(at, id));
            } else {
                json.refuse(child(at, id), Limits.id(id), id);
            }
        }
        return field.equals("add") ? new Action.Preview(null, weights, null) : new Action.Preview(null, null, weights);
    }

    // ------------------------------------------------------------------ the grammar's small parts

    /** A list field of {@code n}, each element read by {@code element}; null when absent or no array. */
    private <T> List<T> list(JsonNode n, String path, String field, JsonBinder.Reader<T> element) {
        return grammar.optional(n, path, field, (v, at) -> json.list(v, at, element));
    }

    /**
     * A text the room reads (a title, a summary, a narration): a string with something in it (English), or an object
     * from a language of the window ({@code en}, {@code zh}, {@code pl}) to such a string, English among them.
     */
    private LocalText text(JsonNode n, String path, String field) {
        return grammar.optional(n, path, field, (v, at) -> {
            if (!v.isObject() && !v.isTextual()) {
                json.refuse(at, "must be a string or an object of its texts by language (" + String.join(", ",
                        LANGUAGES) + ")", v);
                return null;
            }
            if (!v.isObject()) {
                String s = nonEmpty(v, at);
                return s == null ? null : LocalText.of(s);
            }
            Map<String, String> byLanguage = new LinkedHashMap<>();
            boolean ok = true;
            for (Map.Entry<String, JsonNode> e : (Iterable<Map.Entry<String, JsonNode>>) v::fields) {
                String lp = child(at, e.getKey());
                if (!LANGUAGES.contains(e.getKey())) {
                    json.refuse(lp, "not a language of the window (" + String.join(", ", LANGUAGES) + ")",
                            e.getValue());
                    ok = false;
                    continue;
                }
                String s = nonEmpty(e.getValue(), lp);
                if (s == null) {
                    ok = false;
                } else {
                    byLanguage.put(e.getKey(), s);
                }
            }
            if (!v.has("en")) {
                json.refuse(at, "needs its English text (en)", v);
                ok = false;
            }
            return ok ? new LocalText(byLanguage) : null;
        });
    }

    /** A string with something in it; null after saying why not. */
    private String nonEmpty(JsonNode v, String path) {
        String s = json.string(v, path);
        if (s != null && s.isBlank()) {
            json.refuse(path, "must be a non-empty string", v);
            return null;
        }
        return s;
    }

    /** A backend id a record holds at {@code path}: given, and a backend of the lesson. */
    private void backend(String id, String path) {
        if (present(id, path)) {
            grammar.known(id, path);
        }
    }

    /** Whether a record's field that must be given holds something (null is a string field left unset). */
    private boolean present(Object value, String path) {
        return !json.refuse(path, value == null ? "required" : null, null);
    }

    private static String child(String parent, String name) {
        return JsonBinder.child(parent, name);
    }
}
