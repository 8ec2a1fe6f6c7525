/**
 * Fulcrum, a load balancer you can see. {@link dev.fulcrum.Main} is the one class at this level: it reads the command
 * line ({@code dev.fulcrum.app.FulcrumCommand}) and hands it the window ({@code dev.fulcrum.ui.Gui}), the only place
 * where the app and the window meet. docs/ARCHITECTURE.md maps the packages below; docs/REFERENCE.md is the outside.
 *
 * <p>May use: app and ui. Must not be used by any other package.
 */
package dev.fulcrum;
