package dev.fulcrum.discovery;

import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.engine.BackendSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.xbill.DNS.AAAARecord;
import org.xbill.DNS.ARecord;
import org.xbill.DNS.ExtendedResolver;
import org.xbill.DNS.Lookup;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Resolver;
import org.xbill.DNS.SimpleResolver;
import org.xbill.DNS.TextParseException;
import org.xbill.DNS.Type;

/**
 * Every A and AAAA record of a name, asked of the system's resolvers or of one given server, each address
 * becoming a backend {@code <name>-<address>-<port>} on the configured port. Caching is off: the point of
 * re-resolving is to see changes. A name that exists with no A or AAAA record is an empty answer (no backends);
 * a name that does not exist (NXDOMAIN) or a lookup that fails is an error, and the source keeps its last good set.
 */
final class DnsSource implements DiscoverySource {
    private final DiscoveryConfig config;
    /** Built on the first refresh, on the discovery thread: finding a resolver's address is a lookup too. */
    private Name name;
    private Resolver resolver;

    DnsSource(DiscoveryConfig config) {
        this.config = config;
    }

    /**
     * The name and resolver, made when first needed: a {@code server} whose host does not resolve fails this
     * refresh (the source keeps its last good set and tries again), not the config that named it, and the lookup
     * runs on the discovery thread, not in the admin request or the config reload that set it up.
     */
    private synchronized void prepare() throws IOException {
        if (resolver != null) {
            return;
        }
        Name n = name(config);
        resolver = resolver(config);
        name = n;
    }

    /** The configured name, absolute (a trailing dot added): searched as given, never under a local domain. */
    static Name name(DiscoveryConfig config) throws IOException {
        try {
            return Name.fromString(config.name().endsWith(".") ? config.name() : config.name() + ".");
        } catch (TextParseException e) {
            throw new IOException("cannot resolve with this setting (got: " + config.label() + "): " + e.getMessage(), e);
        }
    }

    /**
     * The configured {@code server}, or the system's resolvers, with a lookup timeout of the refresh interval between
     * half a second and five seconds. A server whose host does not resolve is an error of this refresh.
     */
    static Resolver resolver(DiscoveryConfig config) throws IOException {
        try {
            Resolver r;
            if (config.server() == null) {
                r = new ExtendedResolver();
            } else {
                int colon = config.server().lastIndexOf(':');
                String host = config.server().substring(0, colon).replace("[", "").replace("]", "");
                r = new SimpleResolver(new InetSocketAddress(InetAddress.getByName(host),
                        Integer.parseInt(config.server().substring(colon + 1))));
            }
            r.setTimeout(Duration.ofMillis(Math.min(5000, Math.max(500, config.refreshMs()))));
            return r;
        } catch (UnknownHostException e) {
            throw new IOException("cannot resolve with this setting (got: " + config.label() + "): " + e.getMessage(), e);
        }
    }

    @Override
    public String label() {
        return config.label();
    }

    @Override
    public List<BackendSpec> resolve() throws IOException {
        prepare();
        TreeSet<String> addresses = new TreeSet<>();
        for (int type : new int[] {Type.A, Type.AAAA}) {
            Lookup lookup = new Lookup(name, type);
            lookup.setResolver(resolver);
            lookup.setCache(null);
            Record[] records = lookup.run();
            int result = lookup.getResult();
            // Only "these records" and "the name has none of this type" are answers. NXDOMAIN, a timeout or a
            // SERVFAIL for either type fails the whole refresh, so the source keeps its last good set: taking
            // the other type's answer alone would drain every address of the failed type (all of them, when
            // A times out and AAAA says "none").
            if (result != Lookup.SUCCESSFUL && result != Lookup.TYPE_NOT_FOUND) {
                throw new IOException(Type.string(type) + " lookup of " + config.name() + " failed ("
                        + lookup.getErrorString() + ") at " + (config.server() == null ? "the system resolvers" : config.server()));
            }
            if (records == null) {
                continue;
            }
            for (Record r : records) {
                if (r instanceof ARecord a) {
                    addresses.add(a.getAddress().getHostAddress());
                } else if (r instanceof AAAARecord a) {
                    addresses.add(a.getAddress().getHostAddress());
                }
            }
        }
        List<BackendSpec> out = new ArrayList<>(addresses.size());
        for (String a : addresses) {
            String host = a.contains(":") ? "[" + a + "]" : a;
            out.add(new BackendSpec(id(a), "http://" + host + ":" + config.port(), config.weight(), null, false));
        }
        return out;
    }

    /** A backend id from name, address and port, within the id alphabet and 64 characters. */
    private String id(String address) {
        String raw = config.name() + "-" + address.replace(':', '.') + "-" + config.port();
        String clean = raw.replaceAll("[^A-Za-z0-9._-]", "_");
        return clean.length() <= 64 ? clean : clean.substring(clean.length() - 64);
    }
}
