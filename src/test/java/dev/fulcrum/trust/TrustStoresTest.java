package dev.fulcrum.trust;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against NSS's real {@code certutil} (Debian's libnss3-tools, which .ci/run installs), in a home of its own. */
class TrustStoresTest {
    @TempDir
    Path home;

    private static String certutil() {
        String c = TrustStores.onPath("certutil");
        assertThat(c).as("certutil on the PATH (apt-get install libnss3-tools)").isNotNull();
        return c;
    }

    private static String list(Path db) throws Exception {
        Process p = new ProcessBuilder(certutil(), "-L", "-d", "sql:" + db).redirectErrorStream(true).start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    @Test
    void installCreatesTheUsersNssDatabaseTrustsTheAuthorityAndUninstallTakesItOut() throws Exception {
        LocalAuthority ca = LocalAuthority.loadOrCreate(home.resolve(".config/fulcrum/ca"));
        TrustStores stores = new TrustStores(home, certutil());
        Path db = home.resolve(".pki/nssdb");

        List<TrustStores.Outcome> installed = stores.install(ca);

        assertThat(installed).singleElement().satisfies(o -> {
            assertThat(o.done()).as(o.toString()).isTrue();
            assertThat(o.store()).contains(db.toString());
        });
        assertThat(list(db)).containsPattern(ca.nickname() + "\\s+C,,");
        assertThat(stores.holds(db, ca)).isTrue();

        assertThat(stores.install(ca)).as("a second install is harmless").allMatch(TrustStores.Outcome::done);

        List<TrustStores.Outcome> removed = stores.uninstall(ca);

        assertThat(removed).singleElement().satisfies(o -> assertThat(o.done()).as(o.toString()).isTrue());
        assertThat(list(db)).doesNotContain(ca.nickname());
        assertThat(stores.uninstall(ca)).as("nothing left to remove").isEmpty();
    }

    @Test
    void firefoxProfilesWithADatabaseAreTrustedToo() throws Exception {
        LocalAuthority ca = LocalAuthority.loadOrCreate(home.resolve("ca"));
        Path profile = home.resolve(".mozilla/firefox/abcd.default-release");
        Files.createDirectories(profile);
        Process p = new ProcessBuilder(certutil(), "-N", "-d", "sql:" + profile, "--empty-password").start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        Files.createDirectories(home.resolve(".mozilla/firefox/no-database"));

        List<TrustStores.Outcome> installed = new TrustStores(home, certutil()).install(ca);

        assertThat(installed).extracting(TrustStores.Outcome::store).hasSize(2)
                .anyMatch(s -> s.startsWith("Firefox profile") && s.contains("abcd.default-release"));
        assertThat(list(profile)).contains(ca.nickname());
    }

    @Test
    void withoutCertutilNothingIsTouchedAndTheUserIsToldWhatToInstall() {
        LocalAuthority ca = LocalAuthority.loadOrCreate(home.resolve("ca"));

        List<TrustStores.Outcome> out = new TrustStores(home, null).install(ca);

        assertThat(out).singleElement().satisfies(o -> {
            assertThat(o.done()).isFalse();
            assertThat(o.message()).contains("libnss3-tools");
        });
        assertThat(home.resolve(".pki")).doesNotExist();
    }

    @Test
    void theSystemStoreCommandIsTheExactOneForEachSystem() {
        Path ca = Path.of("/home/u/.config/fulcrum/ca/fulcrum-ca.crt");
        assertThat(TrustStores.systemStoreCommand("Linux", ca, false)).isEqualTo(
                "sudo cp /home/u/.config/fulcrum/ca/fulcrum-ca.crt /usr/local/share/ca-certificates/fulcrum-local-ca.crt"
                        + " && sudo update-ca-certificates");
        assertThat(TrustStores.systemStoreCommand("Mac OS X", ca, false))
                .startsWith("sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain");
        assertThat(TrustStores.systemStoreCommand("Windows 11", ca, false)).startsWith("certutil -addstore -f ROOT");
        assertThat(TrustStores.systemStoreCommand("Linux", ca, true)).contains("update-ca-certificates --fresh");
    }
}
