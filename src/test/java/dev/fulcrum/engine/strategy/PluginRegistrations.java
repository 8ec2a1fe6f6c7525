package dev.fulcrum.engine.strategy;

import java.util.Collection;

/**
 * Tests that load plugins into the test JVM take them out again here, so the tests after them see the built-ins
 * alone (several iterate every registered strategy).
 */
public final class PluginRegistrations {
    private PluginRegistrations() {
    }

    public static void forget(Collection<String> names) {
        Strategies.forget(names);
    }
}
