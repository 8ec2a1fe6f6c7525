/**
 * Fulcrum's service provider interface: what a strategy in a jar implements and what it is given. A jar in a plugin
 * directory ({@code --plugins DIR}, and {@code $XDG_CONFIG_HOME/fulcrum/plugins/}) names its
 * {@link dev.fulcrum.spi.StrategyProvider} in {@code META-INF/services/dev.fulcrum.spi.StrategyProvider}; Fulcrum
 * finds it with {@link java.util.ServiceLoader} at start-up and registers each {@link dev.fulcrum.spi.PluginStrategy}
 * it provides beside the built-in strategies. docs/PLUGINS.md is the guide, with a complete example.
 *
 * <p>What a plugin sees is this package only: a read-only {@link dev.fulcrum.spi.Candidate} per backend, a read-only
 * {@link dev.fulcrum.spi.Request}, an {@link dev.fulcrum.spi.Eligible} test, its {@link dev.fulcrum.spi.Settings}.
 * Nothing of the engine is reachable through it, so the engine can change without breaking a plugin.
 *
 * <p>Compatibility. {@link dev.fulcrum.spi.Spi#VERSION} is this package's version. Within one version, nothing in
 * this package is renamed or removed and no abstract method is added (a new method comes with a default); a plugin
 * compiled against version N runs on every Fulcrum whose version is N or later within the same major line. A plugin
 * says the version it was compiled against ({@link dev.fulcrum.spi.StrategyProvider#spiVersion()}, returning the
 * constant, which the compiler copies into the plugin); Fulcrum refuses one built for a newer version than its own,
 * naming the jar, rather than failing on a missing method in the middle of a request.
 *
 * <p>Dependencies. It may use {@code java.base} only; it must not use any other package of Fulcrum or any library,
 * because a plugin compiles against it alone. The engine ({@code dev.fulcrum.engine.strategy}, which adapts a plugin's
 * description) and the app (which loads the jars) use it, never the other way; {@code ArchitectureTest} holds it.
 */
package dev.fulcrum.spi;
