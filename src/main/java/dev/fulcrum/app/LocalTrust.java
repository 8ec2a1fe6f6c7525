package dev.fulcrum.app;

import dev.fulcrum.proxy.TlsContexts;
import dev.fulcrum.trust.LocalAuthority;
import dev.fulcrum.trust.TrustStores;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * {@code --trust} and {@code --untrust} (docs/REFERENCE.md §5): the local certificate authority made (once), the
 * HTTPS certificate issued from it, and the authority put into (or taken out of) the browsers' trust stores, each
 * step printed as one line saying what was done or what could not be and why. The system store needs root, so its
 * exact command is printed instead.
 *
 * <p>Example output of a first {@code --trust} on Debian with libnss3-tools:
 * <pre>
 * created the local certificate authority: ~/.config/fulcrum/tls/ca/fulcrum-ca.crt (SHA-256 1A:2B:...)
 * issued the HTTPS certificate for localhost, *.localhost, 127.0.0.1, ::1: ~/.config/fulcrum/tls/localhost.crt
 * done: NSS database ~/.pki/nssdb (Chromium, Chrome): trusted Fulcrum local CA 5f3a...
 * for curl, Node, Java and the rest of the system (needs root): sudo cp ... && sudo update-ca-certificates
 * </pre>
 */
final class LocalTrust {
    private final Path tlsDir;
    private final TrustStores stores;
    private final PrintStream out;

    LocalTrust(Path tlsDir, TrustStores stores, PrintStream out) {
        this.tlsDir = tlsDir;
        this.stores = stores;
        this.out = out;
    }

    static LocalTrust forUser(PrintStream out) {
        return new LocalTrust(TlsContexts.defaultDir(), TrustStores.forUser(), out);
    }

    /** Makes the authority and the certificate if need be and installs the authority; the exit code (0). */
    int trust(List<String> extraNames) {
        Path caDir = LocalAuthority.dirIn(tlsDir);
        boolean existed = LocalAuthority.load(caDir).isPresent();
        LocalAuthority ca = LocalAuthority.loadOrCreate(caDir);
        out.println((existed ? "local certificate authority: " : "created the local certificate authority: ")
                + ca.certificateFile() + " (SHA-256 " + ca.fingerprint() + ")");
        List<String> names = LocalAuthority.names(extraNames);
        Path cert = tlsDir.resolve("localhost.crt");
        boolean issued = ca.serverCertificate(cert, tlsDir.resolve("localhost.key"), names);
        out.println((issued ? "issued the HTTPS certificate for " : "the HTTPS certificate is current for ")
                + String.join(", ", names) + ": " + cert);
        for (TrustStores.Outcome o : stores.install(ca)) {
            out.println(o);
        }
        out.println("for curl, Node, Java and the rest of the system (needs root): "
                + TrustStores.systemStoreCommand(System.getProperty("os.name"), ca.certificateFile(), false));
        out.println("restart the browser so it reads its store again");
        out.flush();
        return 0;
    }

    /** Takes the authority out of the browsers' stores; its files stay. The exit code (0). */
    int untrust() {
        Path caDir = LocalAuthority.dirIn(tlsDir);
        Optional<LocalAuthority> ca = LocalAuthority.load(caDir);
        if (ca.isEmpty()) {
            out.println("no local certificate authority in " + caDir + ": nothing to remove");
            out.flush();
            return 0;
        }
        List<TrustStores.Outcome> removed = stores.uninstall(ca.get());
        if (removed.isEmpty()) {
            out.println("no browser store holds " + ca.get().nickname());
        }
        for (TrustStores.Outcome o : removed) {
            out.println(o);
        }
        out.println("for the rest of the system, if you added it there (needs root): "
                + TrustStores.systemStoreCommand(System.getProperty("os.name"), ca.get().certificateFile(), true));
        out.println("the authority's files stay in " + caDir + (Files.exists(caDir) ? "; delete that folder to start"
                + " afresh with a new one" : ""));
        out.flush();
        return 0;
    }
}
