package dev.fulcrum;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The layering docs/ARCHITECTURE.md promises: the engine is pure Java. It imports nothing of Undertow, JavaFX,
 * ControlsFX or Jackson, and nothing of the packages built on top of it, so it can be tested, benchmarked
 * and reused (headless, simulator, window) without dragging a server or a toolkit along.
 */
@DisplayName("Architecture")
class ArchitectureTest {
    static final String[] FORBIDDEN_FOR_ENGINE = {
            "io.undertow..", "javafx..", "org.controlsfx..", "com.fasterxml..",
            "dev.fulcrum.proxy..", "dev.fulcrum.health..", "dev.fulcrum.admin..", "dev.fulcrum.config..",
            "dev.fulcrum.demo..", "dev.fulcrum.ui..", "dev.fulcrum.app.."};

    static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.fulcrum");

    /** The rule, over whichever package is the engine (so the test below can show it bites). */
    static ArchRule engineIsPureJava(String enginePackage) {
        return noClasses().that().resideInAPackage(enginePackage)
                .should().dependOnClassesThat().resideInAnyPackage(FORBIDDEN_FOR_ENGINE)
                .because("the engine is pure Java (docs/ARCHITECTURE.md: ui -> admin/app -> proxy/health/demo -> engine)");
    }

    @Test
    void theEngineDependsOnNoServerToolkitJsonLibraryOrOuterLayer() {
        assertThat(MAIN.stream().filter(c -> c.getPackageName().startsWith("dev.fulcrum.engine")))
                .as("the engine's classes were imported").isNotEmpty();

        engineIsPureJava("dev.fulcrum.engine..").check(MAIN);
    }

    @Test
    void theRuleReportsAnEngineClassThatUsesJackson() {
        JavaClasses offending = new ClassFileImporter().importClasses(UsesJackson.class);

        EvaluationResult result = engineIsPureJava("dev.fulcrum..").evaluate(offending);

        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails()).anyMatch(d -> d.contains(ObjectMapper.class.getName()));
    }

    /** Stands in for an engine class that broke the rule. */
    static final class UsesJackson {
        String json(Object o) throws Exception {
            return new ObjectMapper().writeValueAsString(o);
        }
    }
}
