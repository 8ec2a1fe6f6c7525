package dev.fulcrum.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fulcrum.engine.strategy.SimpleRequest;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the proxy's root handler pays per request to route (docs/ARCHITECTURE.md "A request, step by step", step 2):
 * {@link Router#match(dev.fulcrum.engine.strategy.RequestContext, String)} allocates nothing for a config without
 * routes nor for one of path prefixes alone, so the default path costs what it did before routes matched on more.
 */
class RouterMatchCostTest {
    @Test
    void matchingWithoutRoutesOrWithPrefixesAloneAllocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().getId();
        Router prefixes = new Router(List.of(new Router.Route("/api", "api", false),
                new Router.Route("/api/admin", "admin", false), new Router.Route("/static", "static", false)));
        SimpleRequest request = SimpleRequest.get("127.0.0.1", "/shop/cart");
        for (Router router : List.of(Router.EMPTY, prefixes)) {
            long[] bytes = new long[3];
            Object last = null;
            for (int round = 0; round < 3; round++) { // the first rounds warm the JIT up
                long before = mx.getThreadAllocatedBytes(tid);
                for (int i = 0; i < 20_000; i++) {
                    last = router.match(request, "/shop/cart");
                }
                bytes[round] = mx.getThreadAllocatedBytes(tid) - before;
            }
            assertThat(last).isNull();
            // 20,000 matches allocating even 8 bytes each would be 160 kB; a few kB is the measurement's own
            assertThat(bytes[2]).as(router.routes().size() + " routes").isLessThan(8_192);
        }
        assertThat(prefixes.match(request, "/api/admin/x").pool()).isEqualTo("admin");
    }
}
