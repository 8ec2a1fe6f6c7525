package dev.fulcrum.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The window's trust button hears {@code --trust}'s lines one by one, as the command line prints them. */
class TrustLinesTest {
    @Test
    void eachPrintedLineArrivesWholeWithoutItsLineEnd() {
        List<String> lines = new ArrayList<>();
        PrintStream out = FulcrumApp.printingLines(lines::add);

        out.println("created the local certificate authority: /x/fulcrum-ca.crt (SHA-256 1A:2B)");
        out.print("done: NSS database ~/.pki/nssdb (Chromium, Chrome): trusted Fulcrum local CA ✓\r\n");
        out.print("restart the ");
        out.println("browser");

        assertThat(lines).containsExactly("created the local certificate authority: /x/fulcrum-ca.crt (SHA-256 1A:2B)",
                "done: NSS database ~/.pki/nssdb (Chromium, Chrome): trusted Fulcrum local CA ✓",
                "restart the browser");
    }
}
