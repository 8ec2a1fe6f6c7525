package dev.fulcrum.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.fulcrum.engine.strategy.StrategySpec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a config (a file, a string, a parsed tree or a classpath resource) into a {@link FulcrumConfig} and checks
 * the whole of it. On any problem it throws one {@link ConfigException} carrying every problem found, each rendered
 * {@code config error: <json path>: <what is wrong> (got: <value>)}.
 *
 * <p>Three passes, each collecting rather than stopping:
 * <ol>
 *   <li>JSON syntax (strict: no comments, no duplicate keys, nothing after the document), reported with line and
 *       column; nothing else can be checked without a tree, so this one ends the load.</li>
 *   <li>Shape ({@link TreeBinder}, by {@link JsonBinder}'s rules, the same as an admin request body's and a lesson's):
 *       unknown fields (with the nearest known name, for typos), JSON types, required fields. Wrong values are
 *       replaced by defaults so that pass 3 still sees the rest.</li>
 *   <li>Meaning ({@link ConfigValidator}): ranges, formats, references, unique ids, files. Findings at, under or
 *       around a path pass 2 already reported are dropped (they would only repeat it).</li>
 * </ol>
 *
 * <pre>{@code
 * try {
 *     FulcrumConfig c = ConfigLoader.load(Path.of("fulcrum.json"));
 * } catch (ConfigException e) {
 *     e.lines().forEach(System.err::println);   // config error: backends[0].weight: must be ... (got: -3)
 * }
 * }</pre>
 */
public final class ConfigLoader {
    /** The classpath resource of the embedded default config (docs/REFERENCE.md §2.3). */
    public static final String WORKSHOP_RESOURCE = "samples/workshop.json";

    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ConfigLoader() {
    }

    /** Reads and checks a config file (UTF-8). */
    public static FulcrumConfig load(Path file) {
        return parse(read(file));
    }

    /**
     * Reads and checks a config given as JSON text. Editors on Windows start UTF-8 files with a byte order mark; it
     * is not JSON but not the user's error, at start, on a reload of the file or in a PUT body alike.
     */
    public static FulcrumConfig parse(String json) {
        return fromTree(tree(json.startsWith("\uFEFF") ? json.substring(1) : json));
    }

    /** Checks an already parsed JSON tree (e.g. the body of {@code PUT /api/config}). */
    public static FulcrumConfig fromTree(JsonNode tree) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (tree == null || tree.isMissingNode() || !tree.isObject()) {
            String got = tree == null || tree.isMissingNode() ? "empty document" : ConfigPaths.json(tree);
            throw new ConfigException(List.of(new ConfigProblem(ConfigProblem.ROOT, "must be a JSON object", got)));
        }
        FulcrumConfig config = new TreeBinder(problems).bind(tree, FulcrumConfig.class, FulcrumConfig.DEFAULT,
                ConfigProblem.ROOT);
        throwIfAny(problems, ConfigValidator.validate(config));
        return config;
    }

    /** Reads and checks a config from the classpath, e.g. {@link #WORKSHOP_RESOURCE}. */
    public static FulcrumConfig loadResource(String resource) {
        ClassLoader cl = ConfigLoader.class.getClassLoader();
        try (InputStream in = cl.getResourceAsStream(resource)) {
            if (in == null) {
                throw new ConfigException(List.of(new ConfigProblem(ConfigProblem.ROOT,
                        "no such resource on the classpath", resource)));
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ConfigException(List.of(new ConfigProblem(ConfigProblem.ROOT,
                    "cannot read resource: " + e.getMessage(), resource)));
        }
    }

    /** The embedded default config (docs/REFERENCE.md §2.3): {@code samples/workshop.json} from the jar. */
    public static FulcrumConfig workshop() {
        return loadResource(WORKSHOP_RESOURCE);
    }

    /** Every problem of a config file; empty when it is valid. For {@code --check-config}. */
    public static List<ConfigProblem> check(Path file) {
        try {
            load(file);
            return List.of();
        } catch (ConfigException e) {
            return e.problems();
        }
    }

    /**
     * Reads and checks one strategy object (e.g. the body of {@code PUT /api/strategy}) and fills in the defaults of
     * its type. {@code path} prefixes the problem paths: {@code "strategy"} gives {@code strategy.type}, {@code ""}
     * gives {@code type}.
     */
    public static StrategySpec parseStrategy(JsonNode node, String path) {
        List<ConfigProblem> problems = new ArrayList<>();
        String at = path == null || path.isEmpty() ? ConfigProblem.ROOT : path;
        StrategySpec spec = new TreeBinder(problems).bind(node, StrategySpec.class, null, at);
        if (spec == null) {
            throw new ConfigException(problems);
        }
        throwIfAny(problems, ConfigValidator.validateStrategy(spec, path == null ? "" : path));
        return spec.withDefaults();
    }

    /**
     * Reads and checks a JSON array of backend entries (a discovery file) by the rules of a config's {@code backends}:
     * the same binder, so a wrong JSON type is refused rather than converted ({@code "backup": "yes"} is not false,
     * {@code "maxInFlight": 1.7} is not 1), the same per-backend checks, and ids unique within the array. {@code root}
     * names the array in problem paths, e.g. the file: {@code backends.json[0].backup}.
     */
    public static List<BackendConfig> parseBackends(String json, String root) {
        String text = json.startsWith("\uFEFF") ? json.substring(1) : json;
        JsonNode tree = text.isBlank() ? null : tree(text, root);
        if (tree == null || !tree.isArray()) {
            throw new ConfigException(List.of(new ConfigProblem(root, "must be a JSON array of backends",
                    tree == null ? "empty document" : ConfigPaths.json(tree))));
        }
        List<ConfigProblem> problems = new ArrayList<>();
        TreeBinder binder = new TreeBinder(problems);
        List<BackendConfig> backends = new ArrayList<>();
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < tree.size(); i++) {
            String at = ConfigPaths.index(root, i);
            BackendConfig b = binder.bind(tree.get(i), BackendConfig.class, null, at);
            if (b != null) {
                backends.add(b);
                paths.add(at);
            }
        }
        throwIfAny(problems, ConfigValidator.validateBackends(backends, paths));
        return backends;
    }

    /**
     * Reads and checks one backend entry whose id comes from elsewhere (an etcd key after its prefix): a JSON object
     * {@code {"url","weight","labels","maxInFlight","backup"}} by the rules of a config's {@code backends[]} entry. An
     * {@code "id"} in the object is allowed only if it is that id. {@code root} names the entry in problem paths, e.g.
     * the key: {@code /services/api/a.weight}.
     */
    public static BackendConfig parseBackend(String id, String json, String root) {
        String text = json.startsWith("\uFEFF") ? json.substring(1) : json;
        JsonNode tree = text.isBlank() ? null : tree(text, root);
        if (tree == null || !tree.isObject()) {
            throw new ConfigException(List.of(new ConfigProblem(root,
                    "must be a JSON object {\"url\", \"weight\", \"labels\"}",
                    tree == null ? "empty document" : ConfigPaths.json(tree))));
        }
        List<ConfigProblem> problems = new ArrayList<>();
        JsonNode given = tree.get("id");
        if (given != null && !(given.isTextual() && given.textValue().equals(id))) {
            problems.add(new ConfigProblem(ConfigPaths.child(root, "id"),
                    "must be left out or be the id the key gives, " + id, ConfigPaths.json(given)));
        }
        com.fasterxml.jackson.databind.node.ObjectNode entry = tree.deepCopy();
        entry.put("id", id);
        BackendConfig b = new TreeBinder(problems).bind(entry, BackendConfig.class, null, root);
        if (b == null) {
            throw new ConfigException(problems);
        }
        throwIfAny(problems, ConfigValidator.validateBackend(b, root));
        return b;
    }

    /**
     * Adds to the binder's {@code problems} each validation problem not under a path the binder already refused (a
     * value that never bound is not checked again), then throws them all, if any.
     */
    private static void throwIfAny(List<ConfigProblem> problems, List<ConfigProblem> validation) {
        List<ConfigProblem> shape = List.copyOf(problems);
        for (ConfigProblem p : validation) {
            if (shape.stream().noneMatch(s -> JsonBinder.covers(s.path(), p.path()))) {
                problems.add(p);
            }
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }

    /** Parses JSON text strictly into a tree; a syntax error becomes a problem with line and column. */
    public static JsonNode tree(String json) {
        return tree(json, ConfigProblem.ROOT);
    }

    /** As {@link #tree(String)}, with {@code root} naming the document in a syntax error's path. */
    private static JsonNode tree(String json, String root) {
        try {
            JsonNode tree = STRICT.readTree(json);
            if (tree == null || tree.isMissingNode()) {
                throw new ConfigException(List.of(new ConfigProblem(root, "must be a JSON object",
                        "empty document")));
            }
            return tree;
        } catch (JsonProcessingException e) {
            throw new ConfigException(List.of(JsonSyntax.problem(e, json, root)));
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ConfigException(List.of(new ConfigProblem(ConfigProblem.ROOT, "file does not exist",
                    file.toString())));
        } catch (CharacterCodingException e) {
            throw new ConfigException(List.of(new ConfigProblem(ConfigProblem.ROOT, "file is not UTF-8 text",
                    file.toString())));
        } catch (IOException e) {
            throw new ConfigException(List.of(new ConfigProblem(ConfigProblem.ROOT, "cannot read file: " + e,
                    file.toString())));
        }
    }
}
