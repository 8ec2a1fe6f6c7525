package dev.fulcrum.lesson;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Plays lessons two at a time, each on its own engine and ports, all started at once and read in the order given. A
 * lesson mostly waits on its traffic and timers, so one at a time would leave the build's core idle for most of
 * each lesson's seconds; two keeps each lesson's own pace (its expectations are about its own engine alone).
 */
final class TwoAtATime {
    private TwoAtATime() {
    }

    /** Starts every play now; the map's futures come in {@code plays}' order. */
    static Map<String, Future<LessonCheck.Outcome>> start(Map<String, Callable<LessonCheck.Outcome>> plays) {
        ExecutorService two = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "lesson-play");
            t.setDaemon(true); // a test that fails early leaves no play holding the JVM
            return t;
        });
        Map<String, Future<LessonCheck.Outcome>> runs = new LinkedHashMap<>();
        plays.forEach((name, play) -> runs.put(name, two.submit(play)));
        two.shutdown(); // the plays queued run to their end; nothing more is taken
        return runs;
    }

    /** The play's outcome, its failure rethrown as it was. */
    static LessonCheck.Outcome outcome(Future<LessonCheck.Outcome> run) throws Exception {
        try {
            return run.get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }
}
