/**
 * Local HTTPS that browsers trust: a certificate authority created once per user ({@link
 * dev.fulcrum.trust.LocalAuthority}) issues the certificate Fulcrum's HTTPS listener serves, and {@link
 * dev.fulcrum.trust.TrustStores} installs that authority where browsers look ({@code --trust}) and removes it
 * ({@code --untrust}). PEM files are read and written by {@link dev.fulcrum.trust.Pem}.
 *
 * <p>May use: {@code java.*}, Bouncy Castle, and the {@code certutil} program of NSS. Must not use: any other
 * package of Fulcrum; the proxy and the command line use this one.
 */
package dev.fulcrum.trust;
