package dev.fulcrum.app;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The layering of the app and the window (package-info of both): ui depends on app, never the other way, and
 * through one type, {@link EmbeddedFulcrum}; {@code dev.fulcrum.Main}, above both, joins them.
 */
class AppLayeringTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.fulcrum");

    @Test
    void theAppImportsNothingOfTheUi() {
        noClasses().that().resideInAPackage("dev.fulcrum.app..")
                .should().dependOnClassesThat().resideInAPackage("dev.fulcrum.ui..")
                .because("the ui is built on the app: dev.fulcrum.Main hands the command line its window")
                .check(MAIN);
    }

    @Test
    void theUiUsesTheAppThroughEmbeddedFulcrumOnly() {
        noClasses().that().resideInAPackage("dev.fulcrum.ui..")
                .should().dependOnClassesThat(resideInAPackage("dev.fulcrum.app..")
                        .and(not(equivalentTo(EmbeddedFulcrum.class))))
                .because("EmbeddedFulcrum is the window's one entry point into the app")
                .check(MAIN);
    }
}
