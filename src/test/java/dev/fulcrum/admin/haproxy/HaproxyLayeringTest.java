package dev.fulcrum.admin.haproxy;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.fulcrum.admin.EngineClient;
import dev.fulcrum.admin.EngineState;
import dev.fulcrum.engine.EngineEvent;
import dev.fulcrum.engine.EngineException;
import org.junit.jupiter.api.Test;

/** The package-info's rules: what {@code dev.fulcrum.admin.haproxy} may use of Fulcrum, and what it must not. */
class HaproxyLayeringTest {
    private static final String HAPROXY = "dev.fulcrum.admin.haproxy";
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages(HAPROXY);

    @Test
    void theFleetKnowsNothingOfTheWindowTheAppOrTheProxy() {
        noClasses().that().resideInAPackage(HAPROXY)
                .should().dependOnClassesThat().resideInAnyPackage("dev.fulcrum.ui..", "dev.fulcrum.app..",
                        "dev.fulcrum.proxy..", "javafx..")
                .because("the window is above this package and reaches it as an EngineClient")
                .check(MAIN);
    }

    @Test
    void ofAdminAndTheEngineItUsesTheClientInterfaceAndValuesOnly() {
        noClasses().that().resideInAPackage(HAPROXY)
                .should().dependOnClassesThat(resideInAnyPackage("dev.fulcrum.admin", "dev.fulcrum.engine..")
                        .and(not(resideInAPackage(HAPROXY)))
                        .and(not(belongToAnyOf(EngineClient.class, EngineState.class, EngineEvent.class,
                                EngineException.class))))
                .because("a fleet is one more EngineClient: it speaks the window's values, not the engine's internals")
                .check(MAIN);
    }
}
