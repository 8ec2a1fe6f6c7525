package dev.fulcrum.ui.workshop;

import dev.fulcrum.app.EmbeddedFulcrum;
import dev.fulcrum.engine.Pool;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What the workshop views need beyond {@link dev.fulcrum.admin.EngineClient}: things only an embedded engine
 * has, and the window's way to open a scenario. Each part may be null; a view whose part is null says what it
 * lacks instead of pretending.
 *
 * @param pools        pool by name, in-process ("why this backend" explains a decision on the live pool); null
 *                     when attached to a remote engine
 * @param spike        arms a one-shot slow request on a demo backend ({@code (id, ms)}, see
 *                     {@link EmbeddedFulcrum#spike}); null when there are no in-process demo backends. Called off the
 *                     FX thread; may throw {@link IllegalArgumentException} for an unknown id or a bad duration.
 * @param sticky       the backend a request's sticky cookie names in a pool, as the proxy reads it, or null
 *                     ("why this backend" explains a sticky request as the proxy routes it); null when remote
 * @param openScenario called on the FX thread with a scenario's classpath resource name, e.g.
 *                     {@code samples/hashing.json} (read it with {@link #readScenario}); the window restarts the
 *                     embedded engine with that config. Null: the scenarios tab only lists them.
 */
public record WorkshopContext(Function<String, Pool> pools, BiConsumer<String, Long> spike,
                              java.util.function.BiFunction<Pool, dev.fulcrum.engine.strategy.RequestContext, String> sticky,
                              Consumer<String> openScenario) {

    /** Nothing in-process: remote engine, no scenario opening. */
    public static WorkshopContext remote(Consumer<String> openScenario) {
        return new WorkshopContext(null, null, null, openScenario);
    }

    /** Everything from an embedded engine: its pools, its demo backends' spikes, its proxy's sticky cookies. */
    public static WorkshopContext embedded(EmbeddedFulcrum app, Consumer<String> openScenario) {
        return new WorkshopContext(app::pool, app::spike, app::stickyBackend, openScenario);
    }

    /** The text of a scenario resource ({@code samples/NAME.json}) as packaged in the jar. */
    public static String readScenario(String resource) {
        try (var in = WorkshopContext.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IllegalArgumentException("scenario: no such resource (got: " + resource + ")");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("scenario: cannot read " + resource, e);
        }
    }
}
