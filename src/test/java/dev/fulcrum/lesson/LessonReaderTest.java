package dev.fulcrum.lesson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A lesson file is read whole and every problem is named by JSON path, the embedded config's under {@code config.}. */
class LessonReaderTest {
    static final String CONFIG = "{\"demoBackends\": [{\"id\": \"demo-a\", \"port\": 0}, {\"id\": \"demo-b\", \"port\": 0}]}";

    static String lesson(String steps) {
        return "{\"title\": \"t\", \"summary\": \"s\", \"config\": " + CONFIG + ", \"steps\": " + steps + "}";
    }

    static List<String> problems(String json) {
        try {
            LessonReader.parse(json, "x");
        } catch (LessonException e) {
            return e.lines();
        }
        throw new AssertionError("no problem found in " + json);
    }

    @Test
    void aValidLessonReadsIntoItsSteps() {
        Lesson l = LessonReader.parse(lesson("[{\"say\": \"look\", \"do\": [{\"setWeight\": \"demo-a\", \"weight\": 5},"
                + " {\"traffic\": {\"rate\": 100, \"durationMs\": 500}}], \"waitFor\": {\"trafficDone\": true,"
                + " \"timeoutMs\": 2000}, \"show\": {\"view\": \"Ring\", \"backend\": \"demo-a\"},"
                + " \"expect\": [{\"share\": \"demo-a\", \"between\": [0.5, 0.9]}, {\"p99\": {\"below\": 100}}]}]"), "x");
        assertThat(l.name()).isEqualTo("x");
        assertThat(l.config().demoBackends()).hasSize(2);
        Step s = l.steps().get(0);
        assertThat(s.actionLines()).containsExactly("weight of demo-a to 5",
                "traffic: 100 req/s for 0.5 s, 100 uniform keys in path");
        assertThat(s.waitLine()).isEqualTo("wait up to 2 s for the traffic to finish");
        assertThat(s.show()).isEqualTo(new Show("Ring", "demo-a"));
        assertThat(s.expect()).containsExactly(new Expectation.Share("demo-a", Bound.between(0.5, 0.9)),
                new Expectation.Latency("p99", Bound.below(100)));
    }

    @Test
    void theEmbeddedConfigsProblemsCarryConfigInFrontOfTheirPaths() {
        String json = "{\"title\": \"t\", \"summary\": \"s\", \"config\": {\"demoBackends\": [{\"id\": \"demo-a\","
                + " \"port\": 0, \"weight\": -3}]}, \"steps\": [{\"say\": \"x\"}]}";
        assertThat(problems(json)).containsExactly(
                "lesson error: config.demoBackends[0].weight: must be between 0 and 1000 (got: -3)");
    }

    @Test
    void aStepsProblemsAreNamedByTheirPath() {
        assertThat(problems(lesson("[{\"say\": \"a\"}, {\"say\": \"b\"}, {\"say\": \"c\", \"do\": [{\"setWeight\":"
                + " \"demo-a\", \"weight\": -3}, {\"drain\": \"demo-x\"}]}]"))).containsExactly(
                "lesson error: steps[2].do[0].weight: must be between 0 and 1000 (got: -3)",
                "lesson error: steps[2].do[1].drain: no such backend in the lesson (got: demo-x)");
    }

    @Test
    void everyProblemIsReportedNotJustTheFirst() {
        List<String> p = problems("{\"title\": \"\", \"sumary\": \"s\", \"config\": " + CONFIG + ", \"steps\": [{\"sai\":"
                + " \"x\", \"expect\": [{\"share\": \"demo-a\"}, {\"p99\": 5}, {\"breaker\": \"demo-a\", \"is\": \"AJAR\"}],"
                + " \"show\": {\"view\": \"Rings\"}, \"waitFor\": {\"breaker\": \"demo-a\", \"is\": \"OPEN\"}}]}");
        assertThat(p).contains(
                "lesson error: sumary: unknown field, did you mean summary? (got: \"s\")",
                "lesson error: title: must be a non-empty string (got: \"\")",
                "lesson error: summary: required (got: missing)",
                "lesson error: steps[0].sai: unknown field, did you mean say? (got: \"x\")",
                "lesson error: steps[0].say: required (got: missing)",
                "lesson error: steps[0].waitFor.timeoutMs: required: every wait has a timeout (got: missing)",
                "lesson error: steps[0].show.view: must be one of Backends, Ring, Load, Breakers, Health, Strategy,"
                        + " Events, Demo faults, Traffic, Side by side, Why this backend, Routes, Requests (got: Rings)",
                "lesson error: steps[0].expect[0]: needs exactly one bound of between, above, below, atLeast, atMost"
                        + " (got: none)",
                "lesson error: steps[0].expect[2].is: must be one of CLOSED, OPEN, HALF_OPEN (got: AJAR)");
        assertThat(p).anyMatch(l -> l.startsWith("lesson error: steps[0].expect[1].p99: must be a bound"));
    }

    @Test
    void aTextIsAStringOrItsTextsByLanguage() {
        Lesson l = LessonReader.parse("{\"title\": {\"en\": \"Breakers\", \"zh\": \"熔断器\", \"pl\": \"Wyłączniki\"},"
                + " \"summary\": \"English only\", \"config\": " + CONFIG + ", \"steps\": [{\"say\": {\"en\": \"Look.\","
                + " \"pl\": \"Patrzcie.\"}}]}", "x");
        assertThat(l.localTitle().in("zh")).isEqualTo("熔断器");
        assertThat(l.localTitle().in("pl")).isEqualTo("Wyłączniki");
        assertThat(l.title()).as("the command line's language").isEqualTo("Breakers");
        assertThat(l.localSummary().in("zh")).as("English where the file gives no other").isEqualTo("English only");
        assertThat(l.steps().get(0).localSay().in("pl")).isEqualTo("Patrzcie.");
        assertThat(l.steps().get(0).localSay().in("zh")).isEqualTo("Look.");
        assertThat(l.steps().get(0).say()).isEqualTo("Look.");
    }

    @Test
    void aTextByLanguageNeedsEnglishOnlyTheWindowsLanguagesAndSomethingInEach() {
        assertThat(problems("{\"title\": {\"zh\": \"熔断器\"}, \"summary\": {\"en\": \"s\", \"pl\": \" \"},"
                + " \"config\": " + CONFIG + ", \"steps\": [{\"say\": \"a\"}, {\"say\": \"b\"}, {\"say\": {\"en\":"
                + " \"c\", \"de\": \"c\", \"zh\": 5}}, {\"say\": 5}, {\"say\": {}}]}")).containsExactly(
                "lesson error: title: needs its English text (en) (got: {\"zh\":\"熔断器\"})",
                "lesson error: summary.pl: must be a non-empty string (got: \" \")",
                "lesson error: steps[2].say.de: not a language of the window (en, zh, pl) (got: \"c\")",
                "lesson error: steps[2].say.zh: must be a string (got: 5)",
                "lesson error: steps[3].say: must be a string or an object of its texts by language (en, zh, pl)"
                        + " (got: 5)",
                "lesson error: steps[4].say: needs its English text (en) (got: {})");
    }

    @Test
    void aStrategyInAStepIsCheckedByTheConfigsRules() {
        assertThat(problems(lesson("[{\"say\": \"x\", \"do\": [{\"strategy\": {\"type\": \"maglev\", \"tableSize\":"
                + " 65536}}]}]"))).containsExactly(
                "lesson error: steps[0].do[0].strategy.tableSize: must be prime (e.g. 65537)"
                        + " (got: 65536)");
    }

    @Test
    void aConfigActionMustLeaveTheLessonsConfigValidAndIsNamedByItsPath() {
        assertThat(problems(lesson("[{\"say\": \"x\"}, {\"say\": \"y\", \"do\": [{\"config\": {\"circuitBreaker\":"
                + " {\"openMs\": -5}}}]}]"))).containsExactly(
                "lesson error: steps[1].do[0].config.circuitBreaker.openMs: must be greater than 0 (got: -5)");
        assertThat(problems(lesson("[{\"say\": \"x\", \"do\": [{\"config\": {\"circuitBreakr\": {}}}]}]")))
                .singleElement().asString().startsWith("lesson error: steps[0].do[0].config.circuitBreakr: ");
        assertThat(problems(lesson("[{\"say\": \"x\", \"do\": [{\"config\": {}}]}]"))).containsExactly(
                "lesson error: steps[0].do[0].config: must be a non-empty JSON object (a merge patch of the config)"
                        + " (got: {})");
        Lesson l = LessonReader.parse(lesson("[{\"say\": \"x\", \"do\": [{\"config\": {\"circuitBreaker\":"
                + " {\"openMs\": 1500}}}]}]"), "x");
        assertThat(l.steps().get(0).actions().get(0).describe()).isEqualTo("config circuitBreaker.openMs 1500");
    }

    @Test
    void aBackendAddedByAStepMayBeNamedByLaterSteps() {
        Lesson l = LessonReader.parse(lesson("[{\"say\": \"x\", \"do\": [{\"add\": \"demo-e\"}]},"
                + " {\"say\": \"y\", \"do\": [{\"demo\": \"demo-e\", \"down\": true}],"
                + " \"expect\": [{\"state\": \"demo-e\", \"is\": \"UP\"}]}]"), "x");
        assertThat(l.steps()).hasSize(2);
        assertThat(problems(lesson("[{\"say\": \"x\", \"do\": [{\"add\": \"demo-a\"}]}]"))).containsExactly(
                "lesson error: steps[0].do[0].add: already a backend of the lesson (got: demo-a)");
    }

    @Test
    void aWaitTakesOnlyWhatCanBeWatchedAndAlwaysATimeout() {
        assertThat(problems(lesson("[{\"say\": \"x\", \"waitFor\": {\"sequence\": [\"demo-a\", \"demo-b\"],"
                + " \"timeoutMs\": 100}}]"))).singleElement().asString()
                .startsWith("lesson error: steps[0].waitFor: a wait takes a condition the engine and the traffic show");
        assertThat(problems(lesson("[{\"say\": \"x\", \"waitFor\": {\"answers\": 10, \"timeoutMs\": 600000}}]")))
                .containsExactly("lesson error: steps[0].waitFor.timeoutMs: must be between 1 and 60000 (got: 600000)");
    }

    @Test
    void syntaxErrorsAreReportedWithLineAndColumn() {
        assertThat(problems("{\"title\": 't'}")).singleElement().asString()
                .startsWith("lesson error: title: invalid JSON at line 1, column 11: JSON strings take double quotes");
    }

    @Test
    void theProblemsAreNotConfigErrors() {
        assertThatThrownBy(() -> LessonReader.parse("[]", "x")).isInstanceOf(LessonException.class)
                .hasMessage("lesson error: $: must be a JSON object (got: [])");
    }

    /** Two pools, a split route 0 (stable, canary) and a plain route 1. */
    static final String SPLIT_CONFIG = "{\"pools\": {\"stable\": {\"demoBackends\": [{\"id\": \"s1\", \"port\": 0}]},"
            + " \"canary\": {\"demoBackends\": [{\"id\": \"c1\", \"port\": 0}]}}, \"routes\": [{\"pathPrefix\": \"/\","
            + " \"split\": [{\"pool\": \"stable\", \"weight\": 95}, {\"pool\": \"canary\", \"weight\": 5}],"
            + " \"stickyBy\": \"cookie:user\"}, {\"pathPrefix\": \"/admin\", \"pool\": \"stable\"}]}";

    static String splitLesson(String steps) {
        return "{\"title\": \"t\", \"summary\": \"s\", \"config\": " + SPLIT_CONFIG + ", \"steps\": " + steps + "}";
    }

    @Test
    void splitActionsNameARouteWithASplitAndOneWeightPerArm() {
        Lesson l = LessonReader.parse(splitLesson("[{\"say\": \"a\", \"do\": [{\"split\": 0, \"weights\": [90, 10]},"
                + " {\"promote\": 0}, {\"rollback\": 0}], \"expect\": [{\"event\": \"split\", \"happened\": true},"
                + " {\"poolShare\": \"canary\", \"between\": [0.05, 0.15]}, {\"stickyArms\": \"cookie:user\","
                + " \"keys\": 50}]}]"), "x");
        Step s = l.steps().get(0);
        assertThat(s.actionLines()).containsExactly("split of route 0 to 90/10",
                "promote route 0 (every user to its last arm)", "roll back route 0 (every user to its first arm)");
        assertThat(s.expect()).containsExactly(new Expectation.Event("split", true),
                new Expectation.PoolShare("canary", Bound.between(0.05, 0.15), null),
                new Expectation.StickyArms("cookie:user", 50, 3));
        assertThat(problems(splitLesson("[{\"say\": \"a\", \"do\": [{\"split\": 0, \"weights\": [90, 5, 5]},"
                + " {\"split\": 1, \"weights\": [1, 2]}, {\"promote\": 7}, {\"split\": 0, \"weights\": [0, 0]},"
                + " {\"split\": 0, \"weights\": [2000, 1]}, {\"rollback\": \"0\"}]}]"))).containsExactly(
                "lesson error: steps[0].do[0].weights: must give one weight per arm of route 0, 2 (stable, canary)"
                        + " (got: [90,5,5])",
                "lesson error: steps[0].do[1].split: route 1 has no split (got: 1)",
                "lesson error: steps[0].do[2].promote: no such route, the lesson's are 0-1 (got: 7)",
                "lesson error: steps[0].do[3].weights: at least one weight must be above 0 (got: [0,0])",
                "lesson error: steps[0].do[4].weights[0]: must be between 0 and 1000 (got: 2000)",
                "lesson error: steps[0].do[5].rollback: must be an integer (got: \"0\")");
    }

    @Test
    void trafficClassesGoInAHeaderAndAFigureNamesOneOfThem() {
        Lesson l = LessonReader.parse(splitLesson("[{\"say\": \"a\", \"do\": [{\"traffic\": {\"rate\": 100,"
                + " \"durationMs\": 500, \"classes\": {\"vip\": 1, \"batch\": 3}, \"classHeader\": \"X-Tier\"}}],"
                + " \"waitFor\": {\"answers\": 20, \"class\": \"vip\", \"timeoutMs\": 1000},"
                + " \"expect\": [{\"p90\": {\"below\": 0.5}, \"class\": \"vip\", \"versus\": \"batch\"}, {\"status\": 503, \"atLeast\": 1,"
                + " \"class\": \"batch\"}, {\"shed\": {\"atLeast\": 1}, \"route\": 1}]}]"), "x");
        Step s = l.steps().get(0);
        assertThat(s.actionLines()).containsExactly(
                "traffic: 100 req/s for 0.5 s, 100 uniform keys in path, classes in X-Tier vip 25%, batch 75%");
        assertThat(s.waitLine()).isEqualTo("wait up to 1 s for 20 vip answers");
        assertThat(s.expect()).containsExactly(new Expectation.Latency("p90", Bound.below(0.5), "vip", "batch"),
                new Expectation.Status(503, Bound.atLeast(1), "batch"), new Expectation.Shed(1, Bound.atLeast(1)));
        assertThat(problems(splitLesson("[{\"say\": \"a\", \"do\": [{\"traffic\": {\"rate\": 100,"
                + " \"durationMs\": 500, \"classes\": {\"VIP\": 1, \"batch\": 0}}}, {\"traffic\": {\"rate\": 100,"
                + " \"durationMs\": 500, \"classHeader\": \"X-Tier\"}}], \"expect\": [{\"p90\": {\"below\": 100},"
                + " \"class\": \"gold\"}, {\"poolShare\": \"green\", \"atLeast\": 1}, {\"mirrored\": \"canary\"},"
                + " {\"event\": \"deploy\", \"happened\": true}, {\"shed\": {\"atLeast\": 1}, \"route\": 2},"
                + " {\"stickyArms\": \"ip\"}]}]"))).containsExactly(
                "lesson error: steps[0].do[0].traffic.classes.VIP: class name must match [a-z][a-z0-9_-]{0,31} (got: VIP)",
                "lesson error: steps[0].do[0].traffic.classes.batch: must be a weight above 0 (got: 0)",
                "lesson error: steps[0].do[0].traffic.classHeader: required with classes: the header each request's class is"
                        + " sent in (got: missing)",
                "lesson error: steps[0].do[1].traffic.classHeader: only with classes (got: X-Tier)",
                "lesson error: steps[0].expect[0].class: no traffic of the lesson so far sends classes (got: gold)",
                "lesson error: steps[0].expect[1].poolShare: no such pool in the lesson, one of default, stable, canary"
                        + " (got: green)",
                "lesson error: steps[0].expect[2]: needs exactly one bound of between, above, below, atLeast, atMost"
                        + " (got: none)",
                "lesson error: steps[0].expect[3].event: must be one of guard, split (got: deploy)",
                "lesson error: steps[0].expect[4].route: no such route, the lesson's are 0-1 (got: 2)",
                "lesson error: steps[0].expect[5].stickyArms: must be cookie:NAME or header:NAME, where the route's"
                        + " stickyBy reads the user (got: ip)");
    }

    @Test
    void aConfigActionChangesTheRoutesLaterStepsName() {
        String noSplit = "{\"config\": {\"routes\": [{\"pathPrefix\": \"/\", \"pool\": \"stable\"}]}}";
        assertThat(problems(splitLesson("[{\"say\": \"a\", \"do\": [" + noSplit + "]},"
                + " {\"say\": \"b\", \"do\": [{\"promote\": 0}]}]"))).containsExactly(
                "lesson error: steps[1].do[0].promote: route 0 has no split (got: 0)");
    }
}
