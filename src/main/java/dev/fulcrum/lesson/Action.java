package dev.fulcrum.lesson;

import dev.fulcrum.admin.EngineClient;
import java.util.List;
import java.util.Map;

/**
 * One thing a step does before the room looks (a lesson file's {@code do} entries, docs/REFERENCE.md §5): through the
 * engine client, as the window's own controls would, or to the lesson's traffic. {@link #describe()} is the line the
 * narration panel lists.
 */
sealed interface Action {
    /** What a step's actions act on: the engine, the lesson's traffic, time. {@link LessonRunner} is it. */
    interface Context {
        EngineClient client();

        String pool();

        void startTraffic(TrafficPlan plan);

        void stopTraffic();

        /** Starts a demo backend and adds it to the pool (a config change: the engine client has no other way). */
        void addDemo(String id, int weight, long latencyMs, double errorRate);

        void keepPreview(EngineClient.Preview preview);

        /** Waits, letting the window see figures come in meanwhile. */
        void pause(long ms);

        /** Merges {@code patch} into the running config and applies it, as a saved config file applies. */
        void patchConfig(com.fasterxml.jackson.databind.JsonNode patch);
    }

    void run(Context c);

    String describe();

    record SetWeight(String backend, int weight) implements Action {
        @Override
        public void run(Context c) {
            c.client().setWeight(backend, weight);
        }

        @Override
        public String describe() {
            return Check.words("lesson.do.weight", backend, weight);
        }
    }

    record Drain(String backend) implements Action {
        @Override
        public void run(Context c) {
            c.client().drain(backend);
        }

        @Override
        public String describe() {
            return Check.words("lesson.do.drain", backend);
        }
    }

    record Enable(String backend) implements Action {
        @Override
        public void run(Context c) {
            c.client().enable(backend);
        }

        @Override
        public String describe() {
            return Check.words("lesson.do.enable", backend);
        }
    }

    record Remove(String backend) implements Action {
        @Override
        public void run(Context c) {
            c.client().remove(backend);
        }

        @Override
        public String describe() {
            return Check.words("lesson.do.remove", backend);
        }
    }

    /** A new demo backend in the pool. */
    record Add(String backend, int weight, long latencyMs, double errorRate) implements Action {
        @Override
        public void run(Context c) {
            c.addDemo(backend, weight, latencyMs, errorRate);
        }

        @Override
        public String describe() {
            return Check.words("lesson.do.add", backend, weight);
        }
    }

    /** A demo backend's fault settings; null leaves one as it is. */
    record DemoFault(String backend, Double latencyMs, Double errorRate, Boolean down) implements Action {
        @Override
        public void run(Context c) {
            c.client().updateDemo(backend, latencyMs, errorRate, down);
        }

        @Override
        public String describe() {
            StringBuilder b = new StringBuilder(backend + ":");
            if (latencyMs != null) {
                b.append(' ').append(Check.words("lesson.do.demo.latency", Bound.number(latencyMs)));
            }
            if (errorRate != null) {
                b.append(' ').append(Check.words("lesson.do.demo.errors", Bound.number(errorRate * 100)));
            }
            if (down != null) {
                b.append(' ').append(Check.words(down ? "lesson.do.demo.down" : "lesson.do.demo.up"));
            }
            return b.toString();
        }
    }

    /** A strategy object as docs/REFERENCE.md §2.2 writes it, checked by the reader like the config's. */
    record SwitchStrategy(Map<String, Object> strategy) implements Action {
        @Override
        public void run(Context c) {
            c.client().setStrategy(c.pool(), strategy);
        }

        @Override
        public String describe() {
            StringBuilder b = new StringBuilder(Check.words("lesson.do.strategy", strategy.get("type")));
            strategy.forEach((k, v) -> {
                if (!k.equals("type")) {
                    b.append(' ').append(k).append(' ').append(v);
                }
            });
            return b.toString();
        }
    }

    /** Starts the lesson's traffic; a run still going is stopped first. */
    record Traffic(TrafficPlan plan) implements Action {
        @Override
        public void run(Context c) {
            c.startTraffic(plan);
        }

        @Override
        public String describe() {
            return plan.describe();
        }
    }

    record StopTraffic() implements Action {
        @Override
        public void run(Context c) {
            c.stopTraffic();
        }

        @Override
        public String describe() {
            return Check.words("lesson.do.stop_traffic");
        }
    }

    /** The what-if preview of the ring view: what would move, nothing changed. */
    record Preview(List<String> remove, Map<String, Integer> add, Map<String, Integer> weights) implements Action {
        @Override
        public void run(Context c) {
            c.keepPreview(c.client().preview(c.pool(), remove == null ? List.of() : remove,
                    add == null ? Map.of() : add, weights == null ? Map.of() : weights));
        }

        @Override
        public String describe() {
            return remove != null ? Check.words("lesson.do.preview.remove", String.join(", ", remove))
                    : add != null ? Check.words("lesson.do.preview.add", add)
                    : Check.words("lesson.do.preview.weights", weights);
        }
    }

    /** A change of the running config, as a JSON merge patch (e.g. a breaker's open wait, in the step about it). */
    record Config(com.fasterxml.jackson.databind.JsonNode patch) implements Action {
        @Override
        public void run(Context c) {
            c.patchConfig(patch);
        }

        /** Each value the patch sets, by its config path: {@code config circuitBreaker.openMs 1500}. */
        @Override
        public String describe() {
            List<String> values = new java.util.ArrayList<>();
            describe(patch, "", values);
            return Check.words("lesson.do.config", String.join(", ", values));
        }

        private static void describe(com.fasterxml.jackson.databind.JsonNode n, String path, List<String> values) {
            if (n.isObject() && !n.isEmpty()) {
                n.fields().forEachRemaining(f -> describe(f.getValue(), path.isEmpty() ? f.getKey()
                        : path + "." + f.getKey(), values));
            } else {
                values.add(path + " " + (n.isNull() ? Check.words("lesson.do.config.removed")
                        : n.isTextual() ? n.asText() : n.toString()));
            }
        }
    }

    /**
     * A route's split weights, in its arms' order, as the split panel's slider or {@code PUT /api/routes/{i}/split}
     * sets them: {@code {"split": 0, "weights": [95, 5]}} puts 5% of the users of route 0 on its second arm.
     */
    record SetSplit(int route, List<Integer> weights) implements Action {
        @Override
        public void run(Context c) {
            dev.fulcrum.admin.EngineState.RouteInfo r = routeNow(c, route);
            if (r.split() == null || r.split().size() != weights.size()) {
                throw new IllegalStateException("route " + route + " has " + (r.split() == null ? "no split"
                        : r.split().size() + " arms") + ", the step gives " + weights.size() + " weights");
            }
            List<dev.fulcrum.engine.routing.Split.Arm> arms = new java.util.ArrayList<>();
            for (int i = 0; i < weights.size(); i++) {
                arms.add(new dev.fulcrum.engine.routing.Split.Arm(r.split().get(i).pool(), weights.get(i)));
            }
            c.client().setSplit(route, arms);
        }

        @Override
        public String describe() {
            return Check.words("lesson.do.split", route, weights.stream().map(String::valueOf)
                    .collect(java.util.stream.Collectors.joining("/")));
        }
    }

    /** Every user of a route's split to its last arm (the split panel's Promote). */
    record Promote(int route) implements Action {
        @Override
        public void run(Context c) {
            c.client().promote(route);
        }

        @Override
        public String describe() {
            return Check.words("lesson.do.promote", route);
        }
    }

    /** Every user of a route's split back to its first arm (the split panel's Roll back). */
    record Rollback(int route) implements Action {
        @Override
        public void run(Context c) {
            c.client().rollback(route);
        }

        @Override
        public String describe() {
            return Check.words("lesson.do.rollback", route);
        }
    }

    /** Route {@code index} as the engine runs it now. */
    private static dev.fulcrum.admin.EngineState.RouteInfo routeNow(Context c, int index) {
        List<dev.fulcrum.admin.EngineState.RouteInfo> routes = c.client().state().routes();
        for (dev.fulcrum.admin.EngineState.RouteInfo r : routes == null ? List.<dev.fulcrum.admin.EngineState.RouteInfo>of()
                : routes) {
            if (r.index() == index) {
                return r;
            }
        }
        throw new IllegalStateException("the engine has no route " + index);
    }

    record Wait(long ms) implements Action {
        @Override
        public void run(Context c) {
            c.pause(ms);
        }

        @Override
        public String describe() {
            return Check.words("lesson.do.wait", Bound.number(ms / 1000.0));
        }
    }
}
