package dev.fulcrum.lesson;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.demo.TrafficAnswer;
import dev.fulcrum.demo.TrafficSnapshot;
import dev.fulcrum.engine.EngineEvent;
import java.util.List;
import java.util.Map;

/**
 * The real figures an {@link Expectation} is checked against, as {@link LessonRunner} reads them from the engine,
 * its demo backends and the lesson's own traffic while a step runs. "This step" is from the moment the step began
 * (before its actions) until now.
 */
interface Figures {
    /** The pool the lesson's expectations look at ({@code default}). */
    String pool();

    /**
     * How this step's requests of the lesson's traffic ended so far: those sent since the step began (answers to
     * earlier requests still arriving do not count; on a busy machine they lag the picks by a good part of a second).
     */
    List<TrafficAnswer> answers();

    /** How the current traffic run's requests ended so far, in the order their ends came. */
    List<TrafficAnswer> runAnswers();

    /** Requests the lesson's traffic sent since the step began, answered or not yet. */
    long sentSinceStepStart();

    /** The lesson's current traffic run so far, or null when none was started. */
    TrafficSnapshot traffic();

    /** Requests with {@code method} the demo backends received since the current traffic run started. */
    long receivedSinceTrafficStart(String method);

    EngineState state();

    /** The breaker transitions of {@code backend} seen since the step began, oldest first. */
    List<EngineEvent> breakerEvents(String backend);

    /** The engine's events of {@code type} ({@code guard}, {@code split}) seen since the step began, oldest first. */
    List<EngineEvent> events(String type);

    /**
     * Requests marked {@code X-Fulcrum-Mirror: 1} the demo backends of {@code pool} received since the step began
     * (read when it began for a step that has such an expectation, {@link Expectation#countsFromStepStart()}).
     */
    long mirroredSinceStepStart(String pool);

    /** The engine's counts of the copies mirrored to {@code pool} since the step began. */
    EngineState.MirrorCounts mirrorCountsSinceStepStart(String pool);

    /** Requests the engine shed at route {@code route}'s class ceiling (every route's: null) since the step began. */
    long shedSinceStepStart(Integer route);

    /** The backends that answer {@code n} requests sent one after the other, in order ({@code -} for no header). */
    List<String> picks(int n, String path, Map<String, String> headers);

    /** Which backend each of the keys {@code k0 .. k<keys-1>} went to before the step's actions. */
    Map<String, String> keysBefore(int keys);

    /** Which backend each of the keys {@code k0 .. k<keys-1>} goes to now. */
    Map<String, String> keysNow(int keys);

    /** The pool's ring or Maglev table, or null when its strategy has none. */
    EngineClient.Ring ring();

    /** The answer to the step's last what-if preview, or null. */
    EngineClient.Preview lastPreview();

    /** The demo backends' settings by id, as the engine reports them. */
    Map<String, Map<String, Object>> demoState();
}
