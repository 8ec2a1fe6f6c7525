/**
 * The config file (docs/REFERENCE.md §2.1) as records, read and checked as a whole, and written back.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.config.FulcrumConfig} and its parts are records whose component names are the JSON field
 *       names; each part has a {@code DEFAULT} (or, for list entries, {@code DEFAULTS}) constant holding the
 *       defaults of docs/REFERENCE.md §2.1.</li>
 *   <li>{@link dev.fulcrum.config.ConfigLoader} reads JSON and throws one
 *       {@link dev.fulcrum.config.ConfigException} listing every {@link dev.fulcrum.config.ConfigProblem}, each
 *       printed as {@code config error: <json path>: <what is wrong> (got: <value>)}.</li>
 *   <li>{@link dev.fulcrum.config.JsonBinder} is the one rulebook for JSON values: the config file, the admin API's
 *       request bodies and lesson files read their integers, numbers, booleans, strings, lists, maps and objects
 *       through it, so a value gets one verdict and one message wherever it is written (a wrong type is refused,
 *       never converted); {@code TreeBinder} walks records by their components with it.</li>
 *   <li>{@link dev.fulcrum.config.ConfigValidator} holds the meaning checks, also usable on a config built in code
 *       or on one backend or strategy (admin API).</li>
 *   <li>{@link dev.fulcrum.config.ConfigWriter} writes JSON that loads back into an equal record, and saves files
 *       atomically.</li>
 *   <li>{@code toEngineSettings()}, {@code toRouter()}, {@code backendSpecs()} and {@code toSpec()} map the config
 *       onto the engine's values.</li>
 * </ul>
 *
 * <p>Every limit a check applies comes from {@link dev.fulcrum.rules.Limits}, and a strategy object is checked by the
 * engine's own {@code Strategies.violations}, so the file, the admin API and the engine accept the same values.
 *
 * <p>May use: the engine's value types, the rules, Jackson. Must not use: proxy, health, discovery, demo, admin, app,
 * ui, Undertow or JavaFX: the config is read before anything starts, and by {@code --check-config} alone.
 */
package dev.fulcrum.config;
