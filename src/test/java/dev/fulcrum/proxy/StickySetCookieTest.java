package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.undertow.server.Connectors;
import io.undertow.server.handlers.Cookie;
import io.undertow.server.handlers.CookieImpl;
import io.undertow.util.DateUtils;
import java.lang.reflect.Method;
import org.junit.jupiter.api.Test;

/**
 * The sticky cookie's Set-Cookie is Fulcrum's own on both server sides; it says what Undertow's server side said
 * for the same cookie (its private renderer, reached here by reflection), so a client sees no change of form.
 */
class StickySetCookieTest {
    private static String undertows(boolean secure, int maxAge) throws Exception {
        CookieImpl c = new CookieImpl("FULCRUM_STICKY", "q8Lz0Jmfb2N4m1Xr7kTnWg");
        c.setPath("/");
        c.setHttpOnly(true);
        c.setSameSiteMode("Lax");
        c.setSecure(secure);
        c.setMaxAge(maxAge);
        Method render = Connectors.class.getDeclaredMethod("getCookieString", Cookie.class, boolean.class);
        render.setAccessible(true);
        return (String) render.invoke(null, c, false);
    }

    @Test
    void attributeForAttributeAsUndertowWroteIt() throws Exception {
        for (boolean secure : new boolean[] {false, true}) {
            long now = System.currentTimeMillis();
            String ours = StickyCookies.setCookie("FULCRUM_STICKY", "q8Lz0Jmfb2N4m1Xr7kTnWg", secure, 3600, now);
            String theirs = undertows(secure, 3600);
            String expires = "; Expires=[^;]+";
            assertThat(ours.replaceAll(expires, "; Expires=T")).isEqualTo(theirs.replaceAll(expires, "; Expires=T"));
            long oursAt = DateUtils.parseDate(ours.replaceAll(".*; Expires=([^;]+);.*", "$1")).getTime();
            long theirsAt = DateUtils.parseDate(theirs.replaceAll(".*; Expires=([^;]+);.*", "$1")).getTime();
            assertThat(oursAt).isEqualTo((now + 3_600_000) / 1000 * 1000);
            assertThat(Math.abs(theirsAt - oursAt)).as("the same moment but for the second it was rendered in")
                    .isLessThanOrEqualTo(2_000);
        }
        assertThat(StickyCookies.setCookie("S", "t", true, 60, 0))
                .isEqualTo("S=t; Path=/; Secure; HttpOnly; Max-Age=60; Expires=Thu, 01-Jan-1970 00:01:00 GMT; "
                        + "SameSite=Lax");
    }

    @Test
    void aTtlBeyondAnIntIsCutAsBeforeAndExpiresDoesNotOverflow() {
        long year = 365L * 24 * 3600;
        String c = StickyCookies.setCookie("S", "t", false, 100 * year, 0);
        assertThat(c).contains("; Max-Age=" + Integer.MAX_VALUE + ";")
                .contains("Expires=Tue, 19-Jan-2038 03:14:07 GMT");
    }

    @Test
    void expiresIsRenderedOncePerSecondAndSaysWhatTheRendererSays() {
        long at = 1_796_000_123_456L;
        SecondText expires = new SecondText(StickyCookies::cookieDate);
        String first = expires.at(at);
        assertThat(first).isEqualTo(DateUtils.toOldCookieDateString(new java.util.Date(at)));
        assertThat(expires.at(at + 543)).as("the same second: the same text, not rendered again")
                .isSameAs(first);
        assertThat(expires.at(at + 544)).isNotEqualTo(first)
                .isEqualTo(DateUtils.toOldCookieDateString(new java.util.Date(at + 544)));
        assertThat(expires.at(-1)).isEqualTo("Wed, 31-Dec-1969 23:59:59 GMT");
    }
}
