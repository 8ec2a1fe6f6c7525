package dev.fulcrum.app;

import dev.fulcrum.engine.strategy.PluginDescriptor;
import dev.fulcrum.engine.strategy.Strategies;
import dev.fulcrum.spi.PluginStrategy;
import dev.fulcrum.spi.Spi;
import dev.fulcrum.spi.StrategyProvider;
import dev.fulcrum.trust.LocalAuthority;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the strategies of plugin jars (docs/PLUGINS.md) and registers them beside the built-ins, once, at start-up,
 * before any config is read. The directories are each {@code --plugins DIR} in the order given, then Fulcrum's own,
 * {@code $XDG_CONFIG_HOME/fulcrum/plugins/} (else {@code ~/.config/fulcrum/plugins/}), which may be missing; in each,
 * every {@code *.jar} directly inside it, by file name.
 *
 * <p>One {@link URLClassLoader} per jar, whose parent is Fulcrum's own loader: a plugin sees {@code dev.fulcrum.spi}
 * (and, in truth, the rest of Fulcrum's classes, which it must not rely on), never another plugin's classes, so two
 * plugins may bundle different versions of one library, and each strategy is known by the one jar it came from,
 * which every error names. A plugin's libraries go inside its jar (shaded). Only providers whose class the jar itself
 * holds count: a provider on Fulcrum's own class path is not a plugin of that jar.
 *
 * <p>Every problem is one line naming the jar, e.g. {@code plugins: two strategies are called cost-first (in
 * /a/x.jar and /b/y.jar)}, {@code plugins: /a/x.jar provides round-robin, which is a built-in strategy}; the command
 * line prints it and exits 2, nothing started.
 */
final class PluginLoader {
    private static final Logger LOG = LoggerFactory.getLogger(PluginLoader.class);

    private PluginLoader() {
    }

    /** Fulcrum's own plugin directory: {@code plugins} in its config folder. */
    static Path defaultDirectory() {
        return LocalAuthority.configDir().resolve("plugins");
    }

    /**
     * Loads the plugins of {@code given} (each must be a directory) and of {@code optional} (skipped when missing),
     * and registers their strategies.
     *
     * @return the strategies registered, in load order; empty when there are none
     * @throws IllegalArgumentException one line saying what is wrong and naming the jar or directory
     */
    static List<PluginDescriptor> loadAndRegister(List<Path> given, Path optional) {
        List<PluginDescriptor> found = load(jars(given, optional));
        if (!found.isEmpty()) {
            Strategies.register(found);
            for (PluginDescriptor d : found) {
                LOG.info("plugins: strategy {} from {}", d.name(), d.source());
            }
        }
        return found;
    }

    /** Every jar of the directories, in order, each once. */
    static List<Path> jars(List<Path> given, Path optional) {
        Set<Path> out = new LinkedHashSet<>();
        for (Path dir : given) {
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException("plugins: --plugins " + dir + ": "
                        + (Files.exists(dir) ? "not a directory" : "no such directory"));
            }
            out.addAll(jarsIn(dir));
        }
        if (optional != null && Files.exists(optional)) {
            if (!Files.isDirectory(optional)) {
                throw new IllegalArgumentException("plugins: " + optional + ": not a directory");
            }
            out.addAll(jarsIn(optional));
        }
        return List.copyOf(out);
    }

    private static List<Path> jarsIn(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".jar") && Files.isRegularFile(f))
                    .map(f -> f.toAbsolutePath().normalize())
                    .sorted().toList();
        } catch (IOException e) {
            throw new IllegalArgumentException("plugins: " + dir + ": cannot list it (" + e.getMessage() + ")");
        }
    }

    /** The strategies of {@code jars}, each checked by its descriptor; not yet registered. */
    static List<PluginDescriptor> load(List<Path> jars) {
        List<PluginDescriptor> out = new ArrayList<>();
        for (Path jar : jars) {
            out.addAll(loadJar(jar));
        }
        return out;
    }

    private static List<PluginDescriptor> loadJar(Path jar) {
        URLClassLoader loader;
        try {
            loader = new URLClassLoader("fulcrum-plugin:" + jar.getFileName(), new URL[] {jar.toUri().toURL()},
                    PluginLoader.class.getClassLoader());
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("plugins: " + jar + ": not a jar path (" + e.getMessage() + ")");
        }
        List<PluginDescriptor> out = new ArrayList<>();
        try {
            List<ServiceLoader.Provider<StrategyProvider>> providers = ServiceLoader.load(StrategyProvider.class,
                    loader).stream().filter(p -> p.type().getClassLoader() == loader).toList();
            if (providers.isEmpty()) {
                LOG.warn("plugins: {} provides no strategy (it has no META-INF/services/{})", jar,
                        StrategyProvider.class.getName());
            }
            for (ServiceLoader.Provider<StrategyProvider> p : providers) {
                StrategyProvider provider = p.get();
                int version = provider.spiVersion();
                if (version < 1 || version > Spi.VERSION) {
                    throw new IllegalArgumentException("plugins: " + jar + " was built for SPI version " + version
                            + ", and this Fulcrum has version " + Spi.VERSION);
                }
                List<PluginStrategy> strategies = provider.strategies();
                if (strategies == null || strategies.isEmpty()) {
                    throw new IllegalArgumentException("plugins: " + jar + ": " + p.type().getName()
                            + " provides no strategy");
                }
                for (PluginStrategy s : strategies) {
                    if (s == null) {
                        throw new IllegalArgumentException("plugins: " + jar + ": " + p.type().getName()
                                + " provides a null strategy");
                    }
                    try {
                        out.add(PluginDescriptor.of(s, jar.toString()));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("plugins: " + jar + ": " + e.getMessage());
                    }
                }
            }
        } catch (ServiceConfigurationError | LinkageError e) {
            throw new IllegalArgumentException("plugins: " + jar + ": cannot load its strategy provider ("
                    + oneLine(e) + ")");
        } catch (IllegalArgumentException e) {
            throw e.getMessage() != null && e.getMessage().startsWith("plugins: ") ? e
                    : new IllegalArgumentException("plugins: " + jar + ": " + oneLine(e));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("plugins: " + jar + ": its provider threw " + oneLine(e));
        }
        return out;
    }

    private static String oneLine(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root == e ? String.valueOf(e.getMessage()) : e.getMessage() + ": " + root;
        return text.replace('\n', ' ');
    }
}
