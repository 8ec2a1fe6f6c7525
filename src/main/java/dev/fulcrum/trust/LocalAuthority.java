package dev.fulcrum.trust;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Date;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Fulcrum's local certificate authority: one key pair created once per user, in the config folder
 * ({@code $XDG_CONFIG_HOME/fulcrum/tls/ca/} or {@code ~/.config/fulcrum/tls/ca/}), that issues the certificate the HTTPS
 * listener serves. Trusting this one authority ({@code --trust}, {@link TrustStores}) makes every certificate it
 * issues trusted, so a browser opens {@code https://localhost:8443} without a warning, as mkcert and Caddy's local
 * authority do.
 *
 * <p>The authority may only issue end-entity certificates (path length 0); its key never leaves its folder and is
 * readable by its owner only. A server certificate is issued for {@link #DEFAULT_NAMES} plus any extra names, lives
 * 825 days, and is issued again when it is missing, was issued by another authority, names other hosts, or has less
 * than 30 days left.
 *
 * <p>Example: {@code LocalAuthority.loadOrCreate(dir).serverCertificate(crt, key, List.of("app.test"))} writes a
 * certificate for {@code localhost, *.localhost, 127.0.0.1, ::1, app.test} signed by the authority in {@code dir}.
 */
public final class LocalAuthority {
    /** What the listener's certificate names unless told more: loopback by name and by address (RFC 6761). */
    public static final List<String> DEFAULT_NAMES = List.of("localhost", "*.localhost", "127.0.0.1", "::1");
    static final String CA_FILE = "fulcrum-ca.crt";
    static final String KEY_FILE = "fulcrum-ca.key";
    private static final Duration CA_LIFE = Duration.ofDays(3650);
    private static final Duration SERVER_LIFE = Duration.ofDays(825);
    private static final Duration RENEW_BEFORE = Duration.ofDays(30);

    private final Path dir;
    private final X509Certificate certificate;
    private final PrivateKey key;

    private LocalAuthority(Path dir, X509Certificate certificate, PrivateKey key) {
        this.dir = dir;
        this.certificate = certificate;
        this.key = key;
    }

    /** Fulcrum's config folder: {@code $XDG_CONFIG_HOME/fulcrum}, else {@code ~/.config/fulcrum}. */
    public static Path configDir() {
        String xdg = System.getenv("XDG_CONFIG_HOME");
        Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg) : home().resolve(".config");
        return base.resolve("fulcrum");
    }

    /** The user's home as browsers and {@code certutil} find it: {@code $HOME}, else Java's {@code user.home}. */
    public static Path home() {
        String home = System.getenv("HOME");
        return Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"));
    }

    /** Where the HTTPS listener's local certificate lives: {@code tls} in the config folder. */
    public static Path defaultTlsDir() {
        return configDir().resolve("tls");
    }

    /** The authority's folder beside the certificates of {@code tlsDir}. */
    public static Path dirIn(Path tlsDir) {
        return tlsDir.resolve("ca");
    }

    /** The authority in {@code dir}, if one was created there. */
    public static Optional<LocalAuthority> load(Path dir) {
        Path crt = dir.resolve(CA_FILE);
        Path k = dir.resolve(KEY_FILE);
        if (!Files.isReadable(crt) || !Files.isReadable(k)) {
            return Optional.empty();
        }
        return Optional.of(new LocalAuthority(dir, Pem.certificates(crt, "ca").get(0), Pem.privateKey(k, "ca")));
    }

    /** The authority in {@code dir}, created there first if there is none. */
    public static LocalAuthority loadOrCreate(Path dir) {
        return load(dir).orElseGet(() -> create(dir));
    }

    private static LocalAuthority create(Path dir) {
        try {
            KeyPair kp = keyPair();
            X500Name name = new X500Name("CN=Fulcrum local CA, O=Fulcrum development CA, OU=" + owner());
            Instant now = Instant.now();
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(name, serial(),
                    Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(CA_LIFE)), name, kp.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(kp.getPublic()));
            X509Certificate cert = sign(b, kp.getPrivate());
            Pem.writeKey(dir.resolve(KEY_FILE), kp.getPrivate());
            Pem.writeCertificate(dir.resolve(CA_FILE), cert);
            return new LocalAuthority(dir, cert, kp.getPrivate());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the local certificate authority in " + dir, e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot create the local certificate authority: " + e.getMessage(), e);
        }
    }

    public X509Certificate certificate() {
        return certificate;
    }

    /** The authority's certificate file, the one a trust store imports. */
    public Path certificateFile() {
        return dir.resolve(CA_FILE);
    }

    public Path dir() {
        return dir;
    }

    /** The name this authority is stored under in NSS databases: unique per authority, so two never clash. */
    public String nickname() {
        return "Fulcrum local CA " + certificate.getSerialNumber().toString(16);
    }

    /** The authority's SHA-256 fingerprint, colon-separated hex, as browsers show it. */
    public String fingerprint() {
        try {
            byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(certificate.getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(d);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every name a server certificate carries: {@link #DEFAULT_NAMES}, then {@code extra}, without repeats. */
    public static List<String> names(Collection<String> extra) {
        Set<String> all = new LinkedHashSet<>(DEFAULT_NAMES);
        for (String n : extra) {
            all.add(n.toLowerCase(Locale.ROOT));
        }
        return List.copyOf(all);
    }

    /**
     * Makes {@code certFile} and {@code keyFile} a server certificate from this authority for {@code names}, issuing
     * one only when what is there will not do. Returns true when it issued one.
     */
    public boolean serverCertificate(Path certFile, Path keyFile, List<String> names) {
        if (current(certFile, keyFile, names)) {
            return false;
        }
        try {
            KeyPair kp = keyPair();
            Instant now = Instant.now();
            X500Name subject = new X500Name("CN=" + names.get(0) + ", O=Fulcrum development certificate");
            X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(certificate, serial(),
                    Date.from(now.minus(Duration.ofDays(1))), Date.from(now.plus(SERVER_LIFE)), subject,
                    kp.getPublic());
            JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            b.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(generalNames(names)));
            b.addExtension(Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate));
            b.addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(kp.getPublic()));
            X509Certificate cert = sign(b, key);
            Pem.writeKey(keyFile, kp.getPrivate());
            Pem.writeCertificate(certFile, cert);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the server certificate to " + certFile, e);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IllegalStateException("cannot issue the server certificate: " + e.getMessage(), e);
        }
    }

    /** Whether the files hold a certificate this authority issued for exactly {@code names}, not about to expire. */
    private boolean current(Path certFile, Path keyFile, List<String> names) {
        if (!Files.isReadable(certFile) || !Files.isReadable(keyFile)) {
            return false;
        }
        try {
            X509Certificate c = Pem.certificates(certFile, "certificate").get(0);
            c.verify(certificate.getPublicKey());
            boolean fresh = c.getNotAfter().toInstant().isAfter(Instant.now().plus(RENEW_BEFORE));
            return fresh && Set.copyOf(names(c)).equals(Set.copyOf(names));
        } catch (GeneralSecurityException | RuntimeException stale) {
            return false;
        }
    }

    /** The DNS names and IP addresses a certificate is for, as text. */
    static List<String> names(X509Certificate c) throws GeneralSecurityException {
        List<String> out = new ArrayList<>();
        if (c.getSubjectAlternativeNames() == null) {
            return out;
        }
        for (List<?> san : c.getSubjectAlternativeNames()) {
            Object v = san.get(1);
            if (v instanceof String s) {
                out.add(san.get(0).equals(GeneralName.iPAddress) ? canonicalIp(s) : s.toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    private static GeneralName[] generalNames(List<String> names) {
        return names.stream().map(n -> isIp(n) ? new GeneralName(GeneralName.iPAddress, n)
                : new GeneralName(GeneralName.dNSName, n)).toArray(GeneralName[]::new);
    }

    static boolean isIp(String n) {
        return n.matches("\\d{1,3}(\\.\\d{1,3}){3}") || n.contains(":");
    }

    private static String canonicalIp(String s) {
        try {
            InetAddress a = InetAddress.getByName(s);
            return Arrays.equals(a.getAddress(), InetAddress.getByName("::1").getAddress()) ? "::1" : a.getHostAddress();
        } catch (IOException e) {
            return s;
        }
    }

    private static KeyPair keyPair() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        return g.generateKeyPair();
    }

    private static BigInteger serial() {
        return new BigInteger(64, new SecureRandom()).abs().add(BigInteger.ONE);
    }

    private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey signer)
            throws OperatorCreationException, GeneralSecurityException {
        return new JcaX509CertificateConverter().getCertificate(
                b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
    }

    /** Who the authority belongs to, so two on one machine can be told apart in a browser's list. */
    private static String owner() {
        String user = System.getProperty("user.name", "user");
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            host = "localhost";
        }
        return (user + "@" + host).replaceAll("[,=+<>#;\"\\\\]", "_");
    }
}
