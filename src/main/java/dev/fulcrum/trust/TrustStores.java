package dev.fulcrum.trust;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Puts the local authority ({@link LocalAuthority}) into the stores browsers trust, and takes it out again.
 *
 * <p>On Linux, Chromium and Chrome read the user's NSS database {@code ~/.pki/nssdb} and each Firefox profile has
 * its own; both are changed with NSS's {@code certutil} (Debian's {@code libnss3-tools}), as mkcert does: {@code
 * certutil -A -d sql:DIR -t C,, -n NICKNAME -i ca.crt}. The user's NSS database is created when missing (a browser
 * that has never run has none yet). The system store (curl, Node, Java and every other TLS client) needs root, so
 * Fulcrum prints the exact command for it instead of asking for a password.
 *
 * <p>Each store gives one {@link Outcome}: done, or why not and what to do.
 */
public final class TrustStores {
    /** One store's result: its name, whether it now holds (or no longer holds) the authority, and what happened. */
    public record Outcome(String store, boolean done, String message) {
        @Override
        public String toString() {
            return (done ? "done: " : "not done: ") + store + ": " + message;
        }
    }

    private final Path home;
    private final String certutil;

    /** @param certutil the {@code certutil} to run, or null when none is installed */
    TrustStores(Path home, String certutil) {
        this.home = home;
        this.certutil = certutil;
    }

    /** The stores of the user running Fulcrum, with the {@code certutil} on the PATH. */
    public static TrustStores forUser() {
        return new TrustStores(LocalAuthority.home(), onPath("certutil"));
    }

    /** Installs {@code ca} into every NSS database of the user. */
    public List<Outcome> install(LocalAuthority ca) {
        List<Outcome> out = new ArrayList<>();
        if (certutil == null) {
            out.add(new Outcome("NSS (Chromium, Chrome, Firefox)", false,
                    "certutil not found; install it (Debian/Ubuntu: sudo apt-get install libnss3-tools) and run --trust"
                            + " again"));
            return out;
        }
        Path user = home.resolve(".pki/nssdb");
        if (!Files.exists(user.resolve("cert9.db"))) {
            Outcome created = create(user);
            if (!created.done()) {
                out.add(created);
            }
        }
        for (Path db : databases()) {
            Result r = run(certutil, "-A", "-d", "sql:" + db, "-t", "C,,", "-n", ca.nickname(), "-i",
                    ca.certificateFile().toString());
            out.add(new Outcome(describe(db), r.ok(), r.ok() ? "trusted " + ca.nickname() : r.output()));
        }
        return out;
    }

    /** Removes {@code ca} from every NSS database that holds it. */
    public List<Outcome> uninstall(LocalAuthority ca) {
        List<Outcome> out = new ArrayList<>();
        if (certutil == null) {
            out.add(new Outcome("NSS (Chromium, Chrome, Firefox)", false,
                    "certutil not found; install it (Debian/Ubuntu: sudo apt-get install libnss3-tools) to remove it"));
            return out;
        }
        for (Path db : databases()) {
            if (!holds(db, ca)) {
                continue;
            }
            Result r = run(certutil, "-D", "-d", "sql:" + db, "-n", ca.nickname());
            out.add(new Outcome(describe(db), r.ok(), r.ok() ? "removed " + ca.nickname() : r.output()));
        }
        return out;
    }

    /** Whether the NSS database {@code db} holds {@code ca} as a trusted authority. */
    public boolean holds(Path db, LocalAuthority ca) {
        if (certutil == null) {
            return false;
        }
        Result r = run(certutil, "-L", "-d", "sql:" + db, "-n", ca.nickname());
        return r.ok();
    }

    /** The user's NSS database and each Firefox profile's, where they exist. */
    public List<Path> databases() {
        List<Path> out = new ArrayList<>();
        Path user = home.resolve(".pki/nssdb");
        if (Files.exists(user.resolve("cert9.db"))) {
            out.add(user);
        }
        for (Path profiles : List.of(home.resolve(".mozilla/firefox"), home.resolve("snap/firefox/common/.mozilla/firefox"))) {
            if (!Files.isDirectory(profiles)) {
                continue;
            }
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(profiles)) {
                for (Path p : ds) {
                    if (Files.exists(p.resolve("cert9.db"))) {
                        out.add(p);
                    }
                }
            } catch (IOException e) {
                // an unreadable profile folder has no database this user can change
            }
        }
        return out;
    }

    /** The command that trusts (or, with {@code remove}, distrusts) {@code caFile} system-wide on {@code os}. */
    public static String systemStoreCommand(String os, Path caFile, boolean remove) {
        String o = os.toLowerCase(Locale.ROOT);
        if (o.contains("mac")) {
            return remove ? "sudo security remove-trusted-cert -d " + caFile
                    : "sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain " + caFile;
        }
        if (o.contains("win")) {
            return remove ? "certutil -delstore ROOT \"Fulcrum local CA\"" : "certutil -addstore -f ROOT " + caFile;
        }
        String target = "/usr/local/share/ca-certificates/fulcrum-local-ca.crt";
        return remove ? "sudo rm -f " + target + " && sudo update-ca-certificates --fresh"
                : "sudo cp " + caFile + " " + target + " && sudo update-ca-certificates";
    }

    private Outcome create(Path db) {
        try {
            Files.createDirectories(db);
        } catch (IOException e) {
            return new Outcome(describe(db), false, "cannot create the folder: " + e.getMessage());
        }
        Result r = run(certutil, "-N", "-d", "sql:" + db, "--empty-password");
        return new Outcome(describe(db), r.ok(), r.ok() ? "created" : r.output());
    }

    private String describe(Path db) {
        return db.endsWith(".pki/nssdb") ? "NSS database " + db + " (Chromium, Chrome)" : "Firefox profile " + db;
    }

    private record Result(boolean ok, String output) {
    }

    private static Result run(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(false, String.join(" ", command) + ": no answer within 30 s");
            }
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return new Result(p.exitValue() == 0, output.isEmpty() ? "exit " + p.exitValue() : output);
        } catch (IOException e) {
            return new Result(false, command[0] + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(false, "interrupted");
        }
    }

    /** The full path of {@code program} on the PATH, or null. */
    public static String onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }
}
