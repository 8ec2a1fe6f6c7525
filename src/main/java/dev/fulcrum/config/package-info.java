/**
 * The config file (docs/REFERENCE.md §2.1) as records, read and checked as a whole, and written back.
 *
 * <ul>
 *   <li>{@link dev.fulcrum.config.FulcrumConfig} and its parts are records whose component names are the JSON field
 *       names; each part has a {@code DEFAULT} (or, for list entries, {@code DEFAULTS}) constant holding the
 *       contract's defaults.</li>
 *   <li>{@link dev.fulcrum.config.ConfigLoader} reads JSON and throws one
 *       {@link dev.fulcrum.config.ConfigException} listing every {@link dev.fulcrum.config.ConfigProblem}, each
 *       printed as {@code config error: <json path>: <what is wrong> (got: <value>)}.</li>
 *   <li>{@link dev.fulcrum.config.ConfigValidator} holds the meaning checks, also usable on a config built in code
 *       or on one backend or strategy (admin API).</li>
 *   <li>{@link dev.fulcrum.config.ConfigWriter} writes JSON that loads back into an equal record, and saves files
 *       atomically.</li>
 *   <li>{@code toEngineSettings()}, {@code toRouter()}, {@code backendSpecs()} and {@code toSpec()} map the config
 *       onto the engine's values.</li>
 * </ul>
 */
package dev.fulcrum.config;
