package dev.fulcrum.discovery;

import dev.fulcrum.config.DiscoveryConfig;
import dev.fulcrum.engine.BackendSpec;
import dev.fulcrum.rules.Limits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.xbill.DNS.Lookup;
import org.xbill.DNS.Name;
import org.xbill.DNS.Record;
import org.xbill.DNS.Resolver;
import org.xbill.DNS.SRVRecord;
import org.xbill.DNS.Type;

/**
 * Every SRV record of a name (RFC 2782), asked of the system's resolvers or of one given server: each record is a
 * backend {@code http://TARGET:PORT} (the target without its trailing dot) with the id {@code TARGET-PORT}. Its weight
 * is the record's, clamped to 1..1000: RFC 2782 gives weight 0 a small chance, not none, and a backend's weight 0
 * would take no request at all. Records whose priority number is higher than the lowest in the answer are
 * {@code backup}: RFC 2782 has clients use them only when every target of the lowest priority fails, which is what
 * a backup backend is. A record whose target is {@code .} says the service is not offered there and is left out.
 *
 * <p>As for {@link DnsSource}: caching is off; a name that exists with no SRV record is an empty answer (no
 * backends); NXDOMAIN, a timeout or a SERVFAIL is an error, and the source keeps its last good set.
 */
final class DnsSrvSource implements DiscoverySource {
    private final DiscoveryConfig config;
    /** Built on the first refresh, on the discovery thread: finding a resolver's address is a lookup too. */
    private Name name;
    private Resolver resolver;

    DnsSrvSource(DiscoveryConfig config) {
        this.config = config;
    }

    @Override
    public String label() {
        return config.label();
    }

    @Override
    public List<BackendSpec> resolve() throws IOException {
        if (resolver == null) {
            Name n = DnsSource.name(config);
            resolver = DnsSource.resolver(config);
            name = n;
        }
        Lookup lookup = new Lookup(name, Type.SRV);
        lookup.setResolver(resolver);
        lookup.setCache(null);
        Record[] records = lookup.run();
        int result = lookup.getResult();
        if (result != Lookup.SUCCESSFUL && result != Lookup.TYPE_NOT_FOUND) {
            throw new IOException("SRV lookup of " + config.name() + " failed (" + lookup.getErrorString() + ") at "
                    + (config.server() == null ? "the system resolvers" : config.server()));
        }
        // by id, so that one target and port listed twice is one backend, at the better (lower) priority
        Map<String, SRVRecord> byId = new TreeMap<>();
        int lowest = Integer.MAX_VALUE;
        for (Record r : records == null ? new Record[0] : records) {
            if (!(r instanceof SRVRecord srv) || srv.getTarget().equals(Name.root)) {
                continue;
            }
            lowest = Math.min(lowest, srv.getPriority());
            byId.merge(id(target(srv), srv.getPort()), srv, (a, b) -> b.getPriority() < a.getPriority() ? b : a);
        }
        List<BackendSpec> out = new ArrayList<>(byId.size());
        for (Map.Entry<String, SRVRecord> e : byId.entrySet()) {
            SRVRecord srv = e.getValue();
            int weight = (int) Math.max(1, Math.min(Limits.WEIGHT.max(), srv.getWeight()));
            out.add(new BackendSpec(e.getKey(), "http://" + target(srv) + ":" + srv.getPort(), weight, null,
                    srv.getPriority() > lowest));
        }
        return out;
    }

    /** The target as a host name: without the trailing dot of an absolute name. */
    private static String target(SRVRecord srv) {
        return srv.getTarget().toString(true);
    }

    /**
     * {@code TARGET-PORT} in the id alphabet: a character outside it becomes {@code _}; a target too long for 64
     * characters keeps its start (the host's own label, the part that tells targets apart), then a hash of the whole
     * so that two long targets that begin alike still differ, then the port.
     */
    static String id(String target, int port) {
        String clean = target.replaceAll("[^A-Za-z0-9._-]", "_");
        String tail = "-" + port;
        if (clean.length() + tail.length() <= 64) {
            return clean + tail;
        }
        String hash = String.format("%08x", target.hashCode());
        return clean.substring(0, 64 - tail.length() - hash.length() - 1) + "-" + hash + tail;
    }
}
