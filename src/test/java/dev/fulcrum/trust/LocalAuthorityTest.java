package dev.fulcrum.trust;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.cert.X509Certificate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalAuthorityTest {
    @TempDir
    Path dir;

    @Test
    void theAuthorityIsCreatedOnceAndMayOnlyIssueServerCertificates() throws Exception {
        LocalAuthority first = LocalAuthority.loadOrCreate(dir.resolve("ca"));
        LocalAuthority again = LocalAuthority.loadOrCreate(dir.resolve("ca"));

        assertThat(again.certificate()).isEqualTo(first.certificate());
        X509Certificate ca = first.certificate();
        assertThat(ca.getBasicConstraints()).as("a CA, path length 0").isZero();
        assertThat(ca.getKeyUsage()[5]).as("keyCertSign").isTrue();
        assertThat(ca.getSubjectX500Principal().getName()).contains("CN=Fulcrum local CA");
        assertThat(first.nickname()).startsWith("Fulcrum local CA ").isEqualTo(again.nickname());
        assertThat(first.fingerprint()).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");
        assertThat(Files.getPosixFilePermissions(dir.resolve("ca").resolve(LocalAuthority.KEY_FILE)))
                .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void aServerCertificateNamesLoopbackAndTheExtraNamesAndChainsToTheAuthority() throws Exception {
        LocalAuthority ca = LocalAuthority.loadOrCreate(dir.resolve("ca"));
        Path crt = dir.resolve("tls/localhost.crt");
        Path key = dir.resolve("tls/localhost.key");
        List<String> names = LocalAuthority.names(List.of("App.Test"));

        assertThat(ca.serverCertificate(crt, key, names)).isTrue();

        X509Certificate c = Pem.certificates(crt, "crt").get(0);
        c.verify(ca.certificate().getPublicKey());
        assertThat(LocalAuthority.names(c)).containsExactlyInAnyOrder("localhost", "*.localhost", "127.0.0.1", "::1",
                "app.test");
        assertThat(c.getBasicConstraints()).as("not a CA").isEqualTo(-1);
        assertThat(c.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.1");
        assertThat(Pem.privateKey(key, "key").getAlgorithm()).isEqualTo("EC");
    }

    @Test
    void aCurrentCertificateIsKeptAndOneForOtherNamesOrAnotherAuthorityIsIssuedAgain() throws Exception {
        LocalAuthority ca = LocalAuthority.loadOrCreate(dir.resolve("ca"));
        Path crt = dir.resolve("tls/localhost.crt");
        Path key = dir.resolve("tls/localhost.key");
        ca.serverCertificate(crt, key, LocalAuthority.DEFAULT_NAMES);
        byte[] issued = Files.readAllBytes(crt);

        assertThat(ca.serverCertificate(crt, key, LocalAuthority.DEFAULT_NAMES)).isFalse();
        assertThat(Files.readAllBytes(crt)).isEqualTo(issued);

        assertThat(ca.serverCertificate(crt, key, LocalAuthority.names(List.of("more.test")))).isTrue();

        LocalAuthority other = LocalAuthority.loadOrCreate(dir.resolve("other-ca"));
        assertThat(other.serverCertificate(crt, key, LocalAuthority.names(List.of("more.test")))).isTrue();
        Pem.certificates(crt, "crt").get(0).verify(other.certificate().getPublicKey());
    }

    @Test
    void namesComeDefaultsFirstWithoutRepeats() {
        assertThat(LocalAuthority.names(List.of("localhost", "a.test", "A.TEST")))
                .containsExactly("localhost", "*.localhost", "127.0.0.1", "::1", "a.test");
    }
}
