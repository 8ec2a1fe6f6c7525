package dev.fulcrum.admin.fleet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.fulcrum.admin.Json;
import dev.fulcrum.engine.EngineException;
import dev.fulcrum.engine.routing.Split;
import java.util.List;
import java.util.Map;

/**
 * The window's commands as edits of a config's JSON tree (docs/REFERENCE.md §2.1), each on a copy: the top-level
 * {@code backends} and {@code strategy} are pool {@code default}, {@code pools.NAME} the others. Only what the command
 * names changes; every other field stays as written. A backend is an entry of a pool's {@code backends} or
 * {@code demoBackends}. Pure; the caller validates the result and writes it.
 *
 * <p>Example: {@code setWeight(tree, "a", 5)} on {@code {"backends":[{"id":"a","url":"http://h:1"}]}} gives
 * {@code {"backends":[{"id":"a","url":"http://h:1","weight":5}]}}.
 */
final class ConfigEdits {
    private ConfigEdits() {
    }

    /** The backend entry with this id in any pool, or null. */
    static ObjectNode backend(JsonNode tree, String id) {
        for (ArrayNode list : backendLists(tree)) {
            for (JsonNode b : list) {
                if (b.isObject() && id.equals(b.path("id").asText(null))) {
                    return (ObjectNode) b;
                }
            }
        }
        return null;
    }

    static ObjectNode setWeight(JsonNode tree, String id, int weight, String why) {
        ObjectNode copy = tree.deepCopy();
        existing(copy, id, why).put("weight", weight);
        return copy;
    }

    static ObjectNode remove(JsonNode tree, String id, String why) {
        ObjectNode copy = tree.deepCopy();
        ObjectNode entry = existing(copy, id, why);
        for (ArrayNode list : backendLists(copy)) {
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) == entry) {
                    list.remove(i);
                    return copy;
                }
            }
        }
        throw new IllegalStateException("backend " + id + " found but not in a list");
    }

    static ObjectNode add(JsonNode tree, String pool, String id, String url, int weight, Integer maxInFlight,
                          boolean backup, Map<String, String> labels) {
        ObjectNode copy = tree.deepCopy();
        if (id == null || id.isBlank()) {
            throw new EngineException(400, "id: required (got: " + id + ")");
        }
        if (backend(copy, id) != null) {
            throw new EngineException(409, "id: backend " + id + " exists already (got: " + id + ")");
        }
        ObjectNode entry = Json.MAPPER.createObjectNode();
        entry.put("id", id);
        entry.put("url", url);
        entry.put("weight", weight);
        if (maxInFlight != null) {
            entry.put("maxInFlight", maxInFlight);
        }
        if (backup) {
            entry.put("backup", true);
        }
        if (labels != null && !labels.isEmpty()) {
            ObjectNode l = entry.putObject("labels");
            labels.forEach(l::put);
        }
        ObjectNode p = pool(copy, pool);
        JsonNode list = p.get("backends");
        (list instanceof ArrayNode a ? a : p.putArray("backends")).add(entry);
        return copy;
    }

    static ObjectNode strategy(JsonNode tree, String pool, Map<String, Object> strategy) {
        ObjectNode copy = tree.deepCopy();
        pool(copy, pool).set("strategy", Json.MAPPER.valueToTree(strategy));
        return copy;
    }

    /** Route {@code index}'s split arms, weights in the route's order. */
    static ObjectNode split(JsonNode tree, int index, List<Split.Arm> arms) {
        ObjectNode copy = tree.deepCopy();
        ArrayNode split = Json.MAPPER.createArrayNode();
        for (Split.Arm a : arms) {
            split.addObject().put("pool", a.pool()).put("weight", a.weight());
        }
        splitRoute(copy, index).set("split", split);
        return copy;
    }

    /** Every user of route {@code index} to arm {@code arm} (-1: the last): weight 100 there, 0 elsewhere. */
    static ObjectNode allTo(JsonNode tree, int index, int arm) {
        ObjectNode copy = tree.deepCopy();
        ArrayNode split = (ArrayNode) splitRoute(copy, index).get("split");
        int to = arm < 0 ? split.size() - 1 : arm;
        for (int i = 0; i < split.size(); i++) {
            ((ObjectNode) split.get(i)).put("weight", i == to ? 100 : 0);
        }
        return copy;
    }

    private static ObjectNode splitRoute(ObjectNode tree, int index) {
        JsonNode routes = tree.path("routes");
        if (!routes.isArray() || index < 0 || index >= routes.size()) {
            throw new EngineException(404, "route: no such route (got: " + index + "; there are "
                    + (routes.isArray() ? routes.size() : 0) + ")");
        }
        JsonNode route = routes.get(index);
        if (!route.path("split").isArray() || route.path("split").isEmpty()) {
            throw new EngineException(404, "route: routes[" + index + "] has no split");
        }
        return (ObjectNode) route;
    }

    /** The entry, or 404 / the caller's reason (a backend that came from discovery is in no config entry). */
    private static ObjectNode existing(ObjectNode tree, String id, String why) {
        ObjectNode entry = backend(tree, id);
        if (entry == null) {
            throw why != null ? new EngineException(400, why) : notFound(id);
        }
        return entry;
    }

    static EngineException notFound(String id) {
        return new EngineException(404, "backend: no such backend in the config (got: " + id + ")");
    }

    /** Pool {@code default} (or null) is the top level; another name must be in {@code pools}. */
    private static ObjectNode pool(ObjectNode tree, String pool) {
        if (pool == null || pool.equals("default")) {
            return tree;
        }
        JsonNode p = tree.path("pools").path(pool);
        if (!p.isObject()) {
            throw new EngineException(404, "pool: no such pool (got: " + pool + ")");
        }
        return (ObjectNode) p;
    }

    /**
     * Every list of backend entries: each pool's {@code backends} and {@code demoBackends} (a demo backend is the
     * config's as much as a backend is: its weight, its removal and its id are edited the same way).
     */
    private static List<ArrayNode> backendLists(JsonNode tree) {
        List<ArrayNode> out = new java.util.ArrayList<>();
        List<JsonNode> pools = new java.util.ArrayList<>();
        pools.add(tree);
        tree.path("pools").forEach(pools::add);
        for (JsonNode p : pools) {
            for (String field : new String[] {"backends", "demoBackends"}) {
                if (p.get(field) instanceof ArrayNode a) {
                    out.add(a);
                }
            }
        }
        return out;
    }
}
