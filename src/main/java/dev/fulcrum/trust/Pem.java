package dev.fulcrum.trust;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/**
 * PEM files: certificates and unencrypted private keys read and written, a private key readable by its owner
 * only, every file replaced atomically so a reader never sees half of one.
 *
 * <p>Problems are {@link IllegalArgumentException}s naming the field the file came from, the file and the
 * reason, e.g. {@code proxy.tls.privateKey: no unencrypted private key in the file (got: /etc/x.pem)}.
 */
public final class Pem {
    private Pem() {
    }

    /** Every certificate in {@code file}, in order; {@code field} names the file in errors. */
    public static List<X509Certificate> certificates(Path file, String field) {
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
            throw new IllegalArgumentException(field + ": cannot read the file (" + e.getMessage() + ") (got: " + file
                    + ")", e);
        } catch (Exception e) {
            throw new IllegalArgumentException(field + ": not a PEM certificate (" + e.getMessage() + ") (got: " + file
                    + ")", e);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(field + ": no certificate in the file (got: " + file + ")");
        }
        return out;
    }

    /** The private key in {@code file} (PKCS#8, PKCS#1 or SEC1); {@code field} names the file in errors. */
    public static PrivateKey privateKey(Path file, String field) {
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
            throw new IllegalArgumentException(field + ": cannot read the file (" + e.getMessage() + ") (got: " + file
                    + ")", e);
        } catch (Exception e) {
            throw new IllegalArgumentException(field + ": not a PEM private key (" + e.getMessage() + ") (got: " + file
                    + ")", e);
        }
        throw new IllegalArgumentException(field + ": no unencrypted private key in the file (got: " + file + ")");
    }

    static void writeCertificate(Path target, X509Certificate cert) throws IOException {
        write(target, cert, false);
    }

    static void writeKey(Path target, PrivateKey key) throws IOException {
        write(target, new JcaPKCS8Generator(key, null), true);
    }

    private static void write(Path target, Object value, boolean secret) throws IOException {
        Files.createDirectories(target.toAbsolutePath().getParent());
        Path tmp = Files.createTempFile(target.toAbsolutePath().getParent(), target.getFileName().toString(), ".tmp");
        try {
            try {
                // a key for its owner only; a certificate for anyone (a browser or a system store may read it)
                Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString(secret ? "rw-------" : "rw-r--r--"));
            } catch (UnsupportedOperationException notPosix) {
                // Windows: the user's profile folder is private already
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
