package dev.fulcrum.admin;

import static dev.fulcrum.admin.ExportFixturesForTest.binary;
import static dev.fulcrum.admin.ExportFixturesForTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fulcrum.admin.ExportFixturesForTest.Result;
import dev.fulcrum.config.ConfigLoader;
import dev.fulcrum.config.FulcrumConfig;
import dev.fulcrum.engine.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exports that the real nginx and HAProxy must accept with the same meaning, for configs Fulcrum itself accepts. */
class ConfigExportEdgeCasesTest {

    private static String export(String json, String format) {
        FulcrumConfig c = ConfigLoader.parse(json); // passes --check-config
        try (Engine e = ExportFixturesForTest.engine(c)) {
            return ConfigExport.export(c, e, format, null);
        }
    }

    /** A pool whose backends are all backups works in Fulcrum (backups serve while no primary is available). */
    @Test
    void nginxAcceptsTheExportOfAHashingPoolWhoseBackendsAreAllBackups(@TempDir Path dir) {
        Path nginx = binary("nginx");
        assumeTrue(nginx != null);
        String text = export("""
                { "strategy": {"type": "consistent-hash"},
                  "backends": [ {"id": "a", "url": "http://127.0.0.1:9001", "backup": true},
                                {"id": "b", "url": "http://127.0.0.1:9002", "backup": true} ] }
                """, "nginx");
        Path conf = ExportFixturesForTest.nginxConf(dir, text);
        Result r = run(ExportFixturesForTest.nginxTest(nginx, conf), Duration.ofSeconds(20));
        assertThat(r.exitCode()).as("nginx -t said:\n%s\non:\n%s", r.output(), text).isZero();
    }

    /** Key names the validator accepts (RFC 7230 tokens for header/cookie) reach HAProxy unquoted. */
    @Test
    void haproxyAcceptsTheExportOfEveryKeyNameTheValidatorAccepts(@TempDir Path dir) throws Exception {
        Path haproxy = binary("haproxy");
        assumeTrue(haproxy != null);
        for (String key : List.of("header:X'User", "cookie:s#id")) {
            String text = export("""
                    { "strategy": {"type": "consistent-hash", "key": "%s"},
                      "backends": [ {"id": "a", "url": "http://127.0.0.1:9001"} ] }
                    """.formatted(key), "haproxy");
            Path cfg = Files.writeString(dir.resolve("haproxy.cfg"), text);
            Result r = run(List.of(haproxy.toString(), "-c", "-f", cfg.toString()), Duration.ofSeconds(20));
            assertThat(r.exitCode()).as("key %s: haproxy -c said:\n%s", key, r.output()).isZero();
        }
    }

    /** '#' starts a comment in haproxy.cfg: url_param user#id is read as url_param user (another parameter). */
    @Test
    void aQueryKeyWithAHashSignIsNotCutShortByHaproxysCommentSyntax() {
        String text = export("""
                { "strategy": {"type": "consistent-hash", "key": "query:user#id"},
                  "backends": [ {"id": "a", "url": "http://127.0.0.1:9001"} ] }
                """, "haproxy");
        assertThat(text).doesNotContain("balance url_param user#id").contains("balance source")
                .contains("no equivalent: the key's name user#id cannot be written");
    }
}
