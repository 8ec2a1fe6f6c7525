package dev.fulcrum.engine.strategy;

import dev.fulcrum.engine.EngineException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class HashKeyTest {
    private final SimpleRequest full = new SimpleRequest("10.0.0.9", "GET", "/cart/42",
            Map.of("X-User", "alice"), Map.of("session", "s-77"), Map.of("tenant", "acme"));
    private final SimpleRequest bare = SimpleRequest.get("10.0.0.9", "/");

    @Test
    void eachKeyFormReadsItsPartOfTheRequest() {
        assertThat(HashKey.parse("ip").read(full)).isEqualTo("10.0.0.9");
        assertThat(HashKey.parse("path").read(full)).isEqualTo("/cart/42");
        assertThat(HashKey.parse("header:x-user").read(full)).isEqualTo("alice");
        assertThat(HashKey.parse("cookie:session").read(full)).isEqualTo("s-77");
        assertThat(HashKey.parse("query:tenant").read(full)).isEqualTo("acme");
    }

    @Test
    void aRequestWithoutTheKeyFallsBackToTheClientIp() {
        assertThat(HashKey.parse("header:X-User").read(bare)).isEqualTo("10.0.0.9");
        assertThat(HashKey.parse("cookie:session").read(bare)).isEqualTo("10.0.0.9");
        assertThat(HashKey.parse("query:tenant").read(bare)).isEqualTo("10.0.0.9");
        SimpleRequest empty = new SimpleRequest("10.0.0.9", "GET", "/", Map.of("X-User", ""), Map.of(), Map.of());
        assertThat(HashKey.parse("header:X-User").read(empty)).isEqualTo("10.0.0.9");
    }

    @Test
    void aNullSpecMeansIp() {
        assertThat(HashKey.parse(null).source()).isEqualTo(HashKey.Source.IP);
    }

    @Test
    void malformedSpecsAreRejectedNamingTheFieldAndValue() {
        for (String bad : new String[] {"", "body", "header:", "header: ", ":x", "param:x", "IP"}) {
            assertThatThrownBy(() -> HashKey.parse(bad)).as(bad).isInstanceOf(EngineException.class)
                    .hasMessageStartingWith("strategy.key: must be one of ip, path, header:NAME, cookie:NAME, query:NAME")
                    .hasMessageEndingWith("(got: " + bad + ")");
        }
    }
}
