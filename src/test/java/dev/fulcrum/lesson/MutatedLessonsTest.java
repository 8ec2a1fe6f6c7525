package dev.fulcrum.lesson;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The shipped lessons' expectations can fail: each lesson's config is changed to one that teaches nothing (every
 * weight equal, no demo faults, round robin everywhere, no slow start) and played again; most lessons must then fail
 * their checks. A lesson whose checks hold on such a config would be checking nothing it teaches.
 */
class MutatedLessonsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The lesson tree with its config flattened: weights 1, latency and errors 0, round robin, slow start off. */
    static JsonNode mutated(JsonNode lesson) {
        ObjectNode copy = lesson.deepCopy();
        ObjectNode config = (ObjectNode) copy.get("config");
        flatten(config);
        if (config.has("pools")) {
            config.get("pools").forEach(p -> flatten((ObjectNode) p));
        }
        if (config.has("slowStartMs")) {
            config.put("slowStartMs", 0);
        }
        return copy;
    }

    private static void flatten(ObjectNode pool) {
        pool.putObject("strategy").put("type", "round-robin");
        for (String list : List.of("backends", "demoBackends")) {
            if (pool.has(list)) {
                pool.get(list).forEach(b -> {
                    ObjectNode o = (ObjectNode) b;
                    o.put("weight", 1);
                    if (list.equals("demoBackends")) {
                        o.put("latencyMs", 0);
                        o.put("errorRate", 0.0);
                    }
                });
            }
        }
    }

    /**
     * Plays the mutated lessons {@link TwoAtATime}: a mutated lesson is expected to fail, so a busier machine can only
     * make more of them fail, never make one hold.
     */
    @Test
    void mostLessonsFailOnAConfigThatTeachesNothing() throws Exception {
        List<String> failed = new ArrayList<>();
        List<String> held = new ArrayList<>();
        Map<String, Callable<LessonCheck.Outcome>> plays = new LinkedHashMap<>();
        for (String name : Lessons.SHIPPED) {
            Lesson lesson = LessonReader.fromTree(mutated(read(name)), name);
            plays.put(name, () -> LessonCheck.check(lesson, true, line -> { }));
        }
        for (Map.Entry<String, Future<LessonCheck.Outcome>> r : TwoAtATime.start(plays).entrySet()) {
            LessonCheck.Outcome o = TwoAtATime.outcome(r.getValue());
            String first = o.lines().stream().filter(l -> l.contains(": FAILED: ")).findFirst().orElse("all held");
            System.out.println(r.getKey() + " mutated (" + o.millis() + " ms): " + first);
            (o.ok() ? held : failed).add(r.getKey());
        }
        System.out.println(failed.size() + " of " + Lessons.SHIPPED.size() + " lessons fail when mutated; held: "
                + held);
        assertThat(failed.size()).as("lessons that fail on a config that teaches nothing; held: " + held)
                .isGreaterThanOrEqualTo(Lessons.SHIPPED.size() * 8 / 10);
    }

    /** Removes {@code field} from every object of {@code n}, the config's and its patches' alike. */
    static void strip(JsonNode n, String field) {
        if (n instanceof ObjectNode o) {
            o.remove(field);
        }
        n.forEach(c -> strip(c, field));
    }

    /** Sets {@code mirror.percent} to 0 wherever a route mirrors. */
    static void noMirror(JsonNode n) {
        if (n instanceof ObjectNode o && o.get("mirror") instanceof ObjectNode m) {
            m.put("percent", 0);
        }
        n.forEach(MutatedLessonsTest::noMirror);
    }

    /**
     * Each lesson about routes fails, at the expectation that shows what it teaches, once the one thing it teaches is
     * taken out: without the guard nothing rolls the bad canary back; with the mirror at 0 percent green gets no
     * copies; without the batch ceiling nothing is shed.
     */
    @Test
    void eachRoutingLessonFailsWithoutWhatItTeaches() throws Exception {
        Map<String, Consumer<JsonNode>> mutations = new LinkedHashMap<>();
        mutations.put("a-canary-at-5-percent", t -> {
            strip(t, "guard");
            // the guard fires within 2 s of the canary's errors in the lesson itself; its absence needs no 20 s
            t.get("steps").forEach(step -> {
                if (step.path("waitFor").path("event").asText().equals("guard")) {
                    ((ObjectNode) step.get("waitFor")).put("timeoutMs", 6000);
                }
            });
        });
        mutations.put("mirror-before-you-switch", MutatedLessonsTest::noMirror);
        mutations.put("vip-and-batch-on-one-pool", t -> strip(t, "maxInFlightPerBackend"));
        Map<String, String> expectedFailure = Map.of("a-canary-at-5-percent", "for a guard event",
                "mirror-before-you-switch", "copies mirrored to green", "vip-and-batch-on-one-pool", "requests shed");
        for (Map.Entry<String, Consumer<JsonNode>> m : mutations.entrySet()) {
            JsonNode tree = read(m.getKey());
            m.getValue().accept(tree);
            // one at a time: the first expectation to fail must be the one that shows what the lesson teaches
            LessonCheck.Outcome o = LessonCheck.check(LessonReader.fromTree(tree, m.getKey()), true, line -> { });
            String first = o.lines().stream().filter(l -> l.contains(": FAILED: ")).findFirst().orElse("all held");
            System.out.println(m.getKey() + " without what it teaches (" + o.millis() + " ms): " + first);
            assertThat(first).as(m.getKey()).contains(": FAILED: ").contains(expectedFailure.get(m.getKey()));
        }
    }

    /** A shipped lesson's tree, as its file in the jar has it. */
    private static JsonNode read(String name) throws IOException {
        try (InputStream in = MutatedLessonsTest.class.getClassLoader().getResourceAsStream(Lessons.resource(name))) {
            return JSON.readTree(in);
        }
    }
}
