package dev.fulcrum.ui.requests;

import dev.fulcrum.app.EmbeddedFulcrum;
import dev.fulcrum.engine.Pool;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What the Requests tab needs beyond {@link dev.fulcrum.admin.EngineClient}, which only an embedded engine has. Each
 * part may be null (attached to a remote engine); the tab then leaves out what needs it and says so.
 *
 * @param pools pool by name, in-process: "why this backend" asks the live pool about a recorded request
 * @param https the local HTTPS address and the trust steps of {@code --trust}
 */
public record RequestsContext(Function<String, Pool> pools, LocalHttps https) {
    /** The embedded engine's HTTPS: its address and {@code --trust} / {@code --untrust}, run off the FX thread. */
    public interface LocalHttps {
        /** {@code https://HOST:PORT}, or null when TLS is off. */
        String url();

        /** Runs the trust steps, handing each line as it is printed; blocks. */
        void trust(Consumer<String> line);

        /** Runs the untrust steps, handing each line as it is printed; blocks. */
        void untrust(Consumer<String> line);
    }

    /** Nothing in-process: a remote engine. */
    public static RequestsContext remote() {
        return new RequestsContext(null, null);
    }

    /** Everything from an embedded engine. */
    public static RequestsContext embedded(EmbeddedFulcrum app) {
        return new RequestsContext(app::pool, new LocalHttps() {
            @Override
            public String url() {
                return app.httpsUrl();
            }

            @Override
            public void trust(Consumer<String> line) {
                app.trust(line);
            }

            @Override
            public void untrust(Consumer<String> line) {
                app.untrust(line);
            }
        });
    }
}
