package dev.fulcrum.lesson;

import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.config.FulcrumConfig;
import java.net.URI;

/**
 * The engine a lesson runs against and the proxy its traffic goes through: a fresh one started from the lesson's
 * config ({@code --lesson FILE --check}, the build's check of every lesson), or the window's own engine, embedded or
 * attached, with the lesson's config applied to it in place. {@link LessonRunner} sees only this, so the three run the
 * same steps the same way.
 */
public interface LessonEngine extends AutoCloseable {
    EngineClient client();

    /** The proxy's base URL, e.g. {@code http://127.0.0.1:43817}. */
    URI proxy();

    /** Stops what this engine host started; an engine it was handed stays up. */
    @Override
    void close();

    /** A new engine on {@code config}, every listener and demo backend on a free port. */
    static LessonEngine fresh(FulcrumConfig config) {
        return FreshEngine.start(config);
    }

    /**
     * The engine behind {@code client} with the lesson's config applied to it in place ({@code PUT /api/config}):
     * what it listens on stays, and so do its retries, timeouts and sticky sessions unless the lesson sets them; the
     * rest becomes the lesson's.
     *
     * @throws IllegalStateException with the engine's refusals when it will not take the config
     */
    static LessonEngine inPlace(EngineClient client, Lesson lesson) {
        return InPlaceEngine.apply(client, lesson);
    }
}
