/**
 * The application: one running Fulcrum wired from a config, its lifecycle, and the command line.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.app.FulcrumApp} starts the engine, the demo backends, the proxy, the admin API, the
 *       health checks, the metrics poller and discovery from a config (all or nothing), and stops them; it is the
 *       admin API's {@link dev.fulcrum.admin.AdminRuntime}.</li>
 *   <li>A later config ({@code PUT /api/config}, a saved {@code --config} file, SIGHUP) is worked out by
 *       {@link dev.fulcrum.app.ConfigChanges} (what changes, what is refused) and done by
 *       {@link dev.fulcrum.app.ConfigReload}; {@link dev.fulcrum.app.ConfigWatcher} notices the file's edits;
 *       {@link dev.fulcrum.app.LiveConfig} is the running config with the operator's live edits;
 *       {@link dev.fulcrum.app.ConfigSpecs} turns a config into each component's settings.</li>
 *   <li>{@link dev.fulcrum.app.EtcdConfigSource} follows a config kept in etcd ({@code --config etcd://...},
 *       docs/REFERENCE.md §8): its changes applied as a saved file's, its drains, this instance's registration under a
 *       lease; {@link dev.fulcrum.app.EtcdFlags} are the flags that reach etcd.</li>
 *   <li>{@link dev.fulcrum.app.FulcrumCommand} is the command line of docs/REFERENCE.md §1: check, headless, or a
 *       window through a {@link dev.fulcrum.app.WindowLauncher}; {@code --lesson FILE --check} through a
 *       {@link dev.fulcrum.app.LessonChecker} (docs/REFERENCE.md §5).</li>
 *   <li>{@code PluginLoader} finds the strategies of plugin jars ({@code --plugins DIR} and the config folder's
 *       {@code plugins}) with {@link java.util.ServiceLoader} and registers them before any config is read
 *       (docs/PLUGINS.md).</li>
 *   <li>{@link dev.fulcrum.app.EmbeddedFulcrum} is what the desktop window sees of a Fulcrum in this process.</li>
 * </ul>
 *
 * <p>May use: {@code engine}, {@code proxy}, {@code health}, {@code admin}, {@code config}, {@code demo},
 * {@code discovery}, {@code etcd} ({@code --config etcd://...}), {@code replay} ({@code --compare}), {@code spi} (to load plugins), {@code time}, picocli. Must not use: {@code dev.fulcrum.ui}, {@code dev.fulcrum.lesson} or
 * JavaFX; the window and the lessons are above this package and reach it only through
 * {@link dev.fulcrum.app.EmbeddedFulcrum}, and {@code dev.fulcrum.Main} hands the command line the window to open and
 * the lessons' checker. {@code ArchitectureTest} holds these rules.
 */
package dev.fulcrum.app;
