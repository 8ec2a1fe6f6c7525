package dev.fulcrum.proxy;

import dev.fulcrum.engine.Backend;
import dev.fulcrum.engine.Pool;
import dev.fulcrum.threads.PerThread;
import dev.fulcrum.time.SystemClock;
import io.undertow.util.DateUtils;
import io.undertow.util.HeaderMap;
import io.undertow.util.HeaderValues;
import io.undertow.util.Headers;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Sticky sessions with an opaque cookie: the value is an HMAC-SHA256 of the pool and backend id under a
 * secret derived from the config, cut to 16 bytes and base64url-encoded. It names no address, cannot be
 * forged to reach a chosen backend, and every instance started with the same config computes the same
 * value, so any of them honours it.
 */
final class StickyCookies {
    private static final PerThread<SecondText> EXPIRES = SecondText.perThread(StickyCookies::cookieDate);
    private final boolean enabled;
    private final String name;
    private final long ttlSeconds;
    private final SecretKeySpec key;
    private final PerThread<Mac> mac;
    /** "pool/id" to token, and token to "pool/id"; tokens never change for a given secret. */
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private final Map<String, String> owners = new ConcurrentHashMap<>();

    StickyCookies(ProxySettings s) {
        this.enabled = s.stickyEnabled();
        this.name = s.stickyCookie();
        this.ttlSeconds = s.stickyTtlSeconds();
        this.key = new SecretKeySpec(s.stickySecret().length == 0 ? new byte[1] : s.stickySecret(), "HmacSHA256");
        this.mac = PerThread.withInitial(() -> {
            try {
                Mac m = Mac.getInstance("HmacSHA256");
                m.init(key);
                return m;
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("HmacSHA256 unavailable", e);
            }
        });
    }

    boolean enabled() {
        return enabled;
    }

    /**
     * The cookie of {@code pool}: the configured name for the default pool, {@code name_pool} for another. With one
     * name for all (Path=/), each pool's answer replaced the other's cookie, and a client using /api and / in turn
     * was sent to a new api backend on every request.
     */
    String cookieName(String pool) {
        return dev.fulcrum.engine.Engine.DEFAULT_POOL.equals(pool) ? name : name + "_" + pool;
    }

    String token(String pool, String backendId) {
        return tokens.computeIfAbsent(pool + "/" + backendId, k -> {
            byte[] d = mac.get().doFinal(k.getBytes(StandardCharsets.UTF_8));
            byte[] cut = java.util.Arrays.copyOf(d, 16);
            String t = Base64.getUrlEncoder().withoutPadding().encodeToString(cut);
            owners.put(t, k);
            return t;
        });
    }

    /** The backend id a cookie value names in this pool, or null (unknown, forged, or another pool's). */
    String backendFor(Pool pool, String value) {
        if (value == null) {
            return null;
        }
        String owner = owners.get(value);
        if (owner == null) {
            // not seen yet on this instance: compute the tokens of the pool's current members once
            for (var v : pool.snapshot().all()) {
                token(pool.name(), v.id());
            }
            owner = owners.get(value);
        }
        String prefix = pool.name() + "/";
        return owner != null && owner.startsWith(prefix) ? owner.substring(prefix.length()) : null;
    }

    /**
     * Sets the cookie when the request did not already carry this backend's token: a {@code Set-Cookie} field of the
     * answer, written here rather than by either server side, so both send the same bytes.
     */
    void onResponse(ExchangeRequest exchange, Pool pool, Backend backend) {
        if (!enabled) {
            return;
        }
        String t = token(pool.name(), backend.id());
        String cookie = cookieName(pool.name());
        if (t.equals(first(exchange.getRequestHeaders(), cookie))) {
            return;
        }
        exchange.getResponseHeaders().add(Headers.SET_COOKIE,
                setCookie(cookie, t, exchange.secure(), ttlSeconds, SystemClock.currentTimeMillis()));
    }

    /**
     * A Set-Cookie value in the form Undertow's server side gives an RFC 6265 cookie, attribute for attribute:
     * {@code FULCRUM_STICKY=tok; Path=/; HttpOnly; Max-Age=3600; Expires=Mon, 07-Dec-2026 08:00:00 GMT;
     * SameSite=Lax}. Set over TLS it is {@code Secure}, so it is not sent back over plain HTTP, where anyone on the
     * path could read and replay it. Expires says the same as Max-Age for clients that know only Expires.
     */
    static String setCookie(String name, String token, boolean secure, long ttlSeconds, long nowMillis) {
        int maxAge = (int) Math.min(Integer.MAX_VALUE, ttlSeconds);
        StringBuilder b = new StringBuilder(name.length() + token.length() + 96).append(name).append('=').append(token)
                .append("; Path=/");
        if (secure) {
            b.append("; Secure");
        }
        return b.append("; HttpOnly; Max-Age=").append(maxAge).append("; Expires=")
                .append(EXPIRES.get().at(nowMillis + maxAge * 1000L)).append("; SameSite=Lax").toString();
    }

    /** A moment as a cookie's Expires: {@code Mon, 07-Dec-2026 08:00:00 GMT}. */
    static String cookieDate(long millis) {
        return DateUtils.toOldCookieDateString(new Date(millis));
    }

    /**
     * The value of the first cookie called {@code name} in the request's Cookie headers, or null. Of two with the same
     * name the first is the one with the longer path (RFC 6265 5.4), and the first is what nginx's {@code $cookie_}
     * and most servers take; Undertow's own parse keeps the last.
     */
    static String first(HeaderMap headers, String name) {
        HeaderValues all = headers.get(Headers.COOKIE);
        if (all == null) {
            return null;
        }
        for (String v : all) {
            int i = 0;
            while (i < v.length()) {
                int end = v.indexOf(';', i);
                if (end < 0) {
                    end = v.length();
                }
                int s = i;
                while (s < end && v.charAt(s) == ' ') {
                    s++;
                }
                int eq = v.indexOf('=', s);
                if (eq > 0 && eq < end && eq - s == name.length() && v.startsWith(name, s)) {
                    int e = end;
                    while (e > eq + 1 && v.charAt(e - 1) == ' ') {
                        e--;
                    }
                    int b = eq + 1;
                    if (e - b >= 2 && v.charAt(b) == '"' && v.charAt(e - 1) == '"') {
                        b++;
                        e--;
                    }
                    return v.substring(b, e);
                }
                i = end + 1;
            }
        }
        return null;
    }
}
