package dev.fulcrum.proxy;

import java.io.IOException;
import java.io.Reader;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;

/**
 * The TLS listener's key material: PEM files given in {@code proxy.tls}, or a self-signed certificate for
 * localhost generated once and kept in the user's config folder ({@code $XDG_CONFIG_HOME/fulcrum/tls} or
 * {@code ~/.config/fulcrum/tls}), so a browser exception is accepted once, not at every start.
 *
 * <p>Problems are {@link IllegalArgumentException}s whose message names the config field, the file and
 * the reason, e.g. {@code proxy.tls.privateKey: no private key in the file (got: /etc/x.pem)}.
 */
public final class TlsContexts {
    private static final char[] NO_PASSWORD = new char[0];

    private TlsContexts() {
    }

    /** An SSLContext from PEM files: a certificate chain and a private key (PKCS#8, PKCS#1 or SEC1). */
    public static SSLContext fromPem(Path certificate, Path privateKey) {
        List<X509Certificate> chain = readCertificates(certificate);
        PrivateKey key = readPrivateKey(privateKey);
        try {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("fulcrum", key, NO_PASSWORD, chain.toArray(new Certificate[0]));
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(ks, NO_PASSWORD);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(kmf.getKeyManagers(), null, new SecureRandom());
            return ctx;
        } catch (Exception e) {
            throw new IllegalArgumentException("proxy.tls.privateKey: the key does not match the certificate or cannot be used ("
                    + e.getMessage() + ") (got: " + privateKey + ")", e);
        }
    }

    /** The generated localhost certificate, created on first use in {@code dir}. */
    public static SSLContext selfSigned(Path dir) {
        Path cert = dir.resolve("localhost.crt");
        Path key = dir.resolve("localhost.key");
        if (!Files.isReadable(cert) || !Files.isReadable(key)) {
            generate(dir, cert, key);
        }
        return fromPem(cert, key);
    }

    /** Where the generated certificate lives. */
    public static Path defaultDir() {
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : Path.of(System.getProperty("user.home"), ".config");
        return base.resolve("fulcrum").resolve("tls");
    }

    static List<X509Certificate> readCertificates(Path file) {
        List<X509Certificate> out = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            JcaX509CertificateConverter conv = new JcaX509CertificateConverter();
            Object o;
            while ((o = p.readObject()) != null) {
                if (o instanceof X509CertificateHolder h) {
                    out.add(conv.getCertificate(h));
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("proxy.tls.certificate: cannot read the file (" + e.getMessage()
                    + ") (got: " + file + ")", e);
        } catch (Exception e) {
            throw new IllegalArgumentException("proxy.tls.certificate: not a PEM certificate (" + e.getMessage()
                    + ") (got: " + file + ")", e);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("proxy.tls.certificate: no certificate in the file (got: " + file + ")");
        }
        return out;
    }

    static PrivateKey readPrivateKey(Path file) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser p = new PEMParser(r)) {
            JcaPEMKeyConverter conv = new JcaPEMKeyConverter();
            Object o;
            while ((o = p.readObject()) != null) {
                if (o instanceof PEMKeyPair kp) {
                    return conv.getPrivateKey(kp.getPrivateKeyInfo());
                }
                if (o instanceof PrivateKeyInfo info) {
                    return conv.getPrivateKey(info);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("proxy.tls.privateKey: cannot read the file (" + e.getMessage()
                    + ") (got: " + file + ")", e);
        } catch (Exception e) {
            throw new IllegalArgumentException("proxy.tls.privateKey: not a PEM private key (" + e.getMessage()
                    + ") (got: " + file + ")", e);
        }
        throw new IllegalArgumentException("proxy.tls.privateKey: no unencrypted private key in the file (got: " + file + ")");
    }

    private static void generate(Path dir, Path cert, Path key) {
        try {
            Files.createDirectories(dir);
            KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
            g.initialize(256);
            KeyPair kp = g.generateKeyPair();
            X500Name name = new X500Name("CN=localhost, O=Fulcrum development certificate");
            Instant now = Instant.now();
            JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name,
                    new BigInteger(64, new SecureRandom()), Date.from(now.minus(Duration.ofDays(1))),
                    Date.from(now.plus(Duration.ofDays(825))), name, kp.getPublic());
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                new GeneralName(GeneralName.iPAddress, "::1")}));
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            X509Certificate c = new JcaX509CertificateConverter().getCertificate(
                    b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(kp.getPrivate())));
            writePem(cert, c, false);
            writePem(key, new JcaPKCS8Generator(kp.getPrivate(), null), true);
        } catch (Exception e) {
            throw new IllegalArgumentException("proxy.tls.certificate: cannot create a self-signed certificate in "
                    + dir + " (" + e.getMessage() + ") (got: null)", e);
        }
    }

    private static void writePem(Path target, Object value, boolean secret) throws IOException {
        Path tmp = Files.createTempFile(target.getParent(), target.getFileName().toString(), ".tmp");
        try {
            if (secret) {
                try {
                    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
                } catch (UnsupportedOperationException ignored) {
                    // not a POSIX file system
                }
            }
            try (JcaPEMWriter w = new JcaPEMWriter(Files.newBufferedWriter(tmp, StandardCharsets.US_ASCII))) {
                w.writeObject(value);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
