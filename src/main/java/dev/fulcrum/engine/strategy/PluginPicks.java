package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.spi.Candidate;
import dev.fulcrum.spi.Eligible;
import dev.fulcrum.spi.Picker;
import dev.fulcrum.spi.Request;
import java.util.List;

/**
 * A plugin's {@link Picker} as an engine {@link Strategy}: the request and the eligibility test go to it as SPI views,
 * and the candidate it returns comes back as the backend it stands for. A candidate it was not given (one it made, or
 * one of an older snapshot) is refused with an exception, which the pool's {@link PluginGuard} treats as a failure.
 * Each pick allocates the two small views; only plugin strategies pay that.
 */
final class PluginPicks implements Strategy {
    private final String type;
    private final Picker picker;
    private final List<Candidate> views;

    PluginPicks(String type, Picker picker, List<Candidate> views) {
        this.type = type;
        this.picker = picker;
        this.views = views;
    }

    Picker picker() {
        return picker;
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public Backend pick(RequestContext request, Eligibility eligible) {
        return backend(picker.pick(new View(request), eligible(eligible)));
    }

    @Override
    public Explanation explain(RequestContext request, RandomSource random) {
        return Explanation.of(backend(picker.explain(new View(request), eligible(Eligibility.ADMITTING))));
    }

    private static Eligible eligible(Eligibility eligible) {
        return c -> c instanceof PluginDescriptor.PluginCandidate pc && eligible.test(pc.backend);
    }

    private Backend backend(Candidate c) {
        if (c == null) {
            return null;
        }
        if (c instanceof PluginDescriptor.PluginCandidate pc) {
            for (Candidate mine : views) { // identity: a view of this snapshot, not an older one
                if (mine == pc) {
                    return pc.backend;
                }
            }
        }
        throw new IllegalStateException("returned a candidate it was not given (got: " + c + ")");
    }

    /** The request as a plugin reads it. */
    private record View(RequestContext request) implements Request {
        @Override
        public String method() {
            return request.method();
        }

        @Override
        public String path() {
            return request.path();
        }

        @Override
        public String header(String name) {
            return request.header(name);
        }

        @Override
        public String cookie(String name) {
            return request.cookie(name);
        }

        @Override
        public String query(String name) {
            return request.queryParam(name);
        }

        @Override
        public String clientIp() {
            return request.clientIp();
        }
    }
}
