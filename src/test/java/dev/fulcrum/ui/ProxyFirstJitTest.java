package dev.fulcrum.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/** The window's process leaves JavaFX and the window's own code to C1, and says which packages in the directive. */
class ProxyFirstJitTest {
    private static String command(String name) throws Exception {
        return String.valueOf(ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), name,
                new Object[] {new String[0]}, new String[] {String[].class.getName()}));
    }

    /** The printed directive that names javafx, from its "matching:" line to the next directive; null if none. */
    private static String ours(String printed) {
        for (String d : printed.split("Directive:")) {
            String body = d.strip();
            if (body.startsWith("matching: ") && body.lines().findFirst().orElseThrow().contains("javafx/*.*")) {
                return body;
            }
        }
        return null;
    }

    @Test
    void theDirectiveKeepsC2FromTheSceneGraphAndTheUiButNotFromTheProxy() throws Exception {
        assertThat(ours(command("compilerDirectivesPrint"))).isNull();
        try {
            assertThat(ProxyFirstJit.apply()).isTrue();
            String directive = ours(command("compilerDirectivesPrint"));
            assertThat(directive).isNotNull();
            String matching = directive.lines().findFirst().orElseThrow();
            assertThat(java.util.List.of(matching.substring("matching: ".length()).split(", ")))
                    .contains("javafx/*.*", "com/sun/javafx/*.*", "com/sun/prism/*.*", "dev/fulcrum/ui/*.*")
                    .noneMatch(p -> p.startsWith("dev/fulcrum/proxy") || p.startsWith("io/undertow")
                            || p.equals("dev/fulcrum/*.*"));
            assertThat(directive.substring(directive.indexOf("c2 directives:"))).contains("Exclude:true");
            assertThat(directive.substring(directive.indexOf("c1 directives:"), directive.indexOf("c2 directives:")))
                    .contains("Exclude:false");
        } finally {
            command("compilerDirectivesRemove");
        }
    }

    @Test
    void theSystemPropertyLeavesTheJitAlone() throws Exception {
        System.setProperty("fulcrum.uiC2", "true");
        try {
            assertThat(ProxyFirstJit.apply()).isFalse();
            assertThat(ours(command("compilerDirectivesPrint"))).isNull();
        } finally {
            System.clearProperty("fulcrum.uiC2");
        }
    }
}
