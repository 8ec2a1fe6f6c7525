package dev.fulcrum.spi;

import java.util.List;

/**
 * The service a plugin jar provides: {@link java.util.ServiceLoader} finds it through the jar's
 * {@code META-INF/services/dev.fulcrum.spi.StrategyProvider}, which names the implementing class (public, with a
 * public no-argument constructor). Fulcrum calls it once, at start-up, before it reads any config.
 */
public interface StrategyProvider {

    /**
     * The SPI version the plugin was compiled against: return {@link Spi#VERSION}. Fulcrum refuses a provider whose
     * version is newer than its own.
     */
    int spiVersion();

    /** The strategies this jar provides, each with a name no other strategy has; at least one. */
    List<PluginStrategy> strategies();
}
