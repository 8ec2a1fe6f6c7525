package dev.fulcrum.demo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo backends of one Fulcrum process, by id, in configuration order.
 *
 * <p>Starting is all or nothing: if one backend cannot listen (its port is taken, say), the ones already
 * started are stopped again and the error names the backend. Ids are unique.
 */
public final class DemoFleet implements AutoCloseable {
    private volatile Map<String, DemoBackend> backends = Map.of();

    private DemoFleet() {
    }

    /** Starts one demo backend per spec. */
    public static DemoFleet start(List<DemoSpec> specs) {
        DemoFleet fleet = new DemoFleet();
        try {
            for (DemoSpec s : specs) {
                fleet.add(s);
            }
        } catch (RuntimeException e) {
            fleet.close();
            throw e;
        }
        return fleet;
    }

    /** Starts and adds one more demo backend; {@code id: already exists} for a duplicate. */
    public synchronized DemoBackend add(DemoSpec spec) {
        if (backends.containsKey(spec.id())) {
            throw new IllegalArgumentException("id: already exists (got: " + spec.id() + ")");
        }
        DemoBackend b;
        try {
            b = DemoBackend.start(spec);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("demoBackends[" + spec.id() + "]: " + e.getMessage(), e);
        }
        Map<String, DemoBackend> next = new LinkedHashMap<>(backends);
        next.put(spec.id(), b);
        backends = Collections.unmodifiableMap(next);
        return b;
    }

    /** Stops and forgets a demo backend; false when there is none by that id. */
    public synchronized boolean remove(String id) {
        DemoBackend b = backends.get(id);
        if (b == null) {
            return false;
        }
        Map<String, DemoBackend> next = new LinkedHashMap<>(backends);
        next.remove(id);
        backends = Collections.unmodifiableMap(next);
        b.close();
        return true;
    }

    /** The demo backend with this id, or null (the admin API answers 404). */
    public DemoBackend get(String id) {
        return backends.get(id);
    }

    /** Every demo backend, in the order they were configured. */
    public List<DemoBackend> all() {
        return List.copyOf(backends.values());
    }

    @Override
    public synchronized void close() {
        List<DemoBackend> all = new ArrayList<>(backends.values());
        backends = Map.of();
        for (DemoBackend b : all) {
            b.close();
        }
    }
}
