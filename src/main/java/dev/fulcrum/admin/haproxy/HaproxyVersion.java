package dev.fulcrum.admin.haproxy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The version an HAProxy instance reports in {@code show info} ({@code Version: 2.6.12-1+deb12u4}), reduced to
 * what decides which runtime commands exist.
 *
 * <p>Dynamic servers ({@code add server} / {@code del server}) appeared in 2.4 behind
 * {@code experimental-mode on} and became ordinary commands in 2.5, so {@link #supportsDynamicServers()} is
 * {@code >= 2.5}. Example: {@code parse("2.4.22-0ubuntu0.22.04.3")} is 2.4, which does not support them.
 *
 * @param major the first number, 2 in 2.6.12
 * @param minor the second number, 6 in 2.6.12
 * @param text  the version string exactly as reported
 */
public record HaproxyVersion(int major, int minor, String text) implements Comparable<HaproxyVersion> {
    private static final Pattern NUMBERS = Pattern.compile("^\\s*(\\d+)\\.(\\d+)");

    /** Parses the {@code Version:} value; unparseable text is an error naming it. */
    public static HaproxyVersion parse(String text) {
        Matcher m = NUMBERS.matcher(text == null ? "" : text);
        if (!m.find()) {
            throw new IllegalArgumentException("version: expected MAJOR.MINOR[.PATCH...] (got: " + text + ")");
        }
        return new HaproxyVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), text.trim());
    }

    /** {@code add server} and {@code del server} without experimental mode: 2.5 and newer. */
    public boolean supportsDynamicServers() {
        return atLeast(2, 5);
    }

    public boolean atLeast(int major, int minor) {
        return this.major > major || (this.major == major && this.minor >= minor);
    }

    /** "2.6", as used in messages such as "not supported by HAProxy 2.4". */
    public String shortName() {
        return major + "." + minor;
    }

    @Override
    public int compareTo(HaproxyVersion o) {
        return major != o.major ? Integer.compare(major, o.major) : Integer.compare(minor, o.minor);
    }

    @Override
    public String toString() {
        return text;
    }
}
