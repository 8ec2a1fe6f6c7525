package dev.fulcrum.lesson;

import dev.fulcrum.i18n.LocalText;
import java.util.List;

/**
 * One step of a lesson: what the trainer says, what happens, what to wait for, where to look and what the room should
 * then see (docs/REFERENCE.md §5).
 *
 * @param localSay the narration, in each language the file gives (English always)
 * @param actions what the step does, in order (the file's {@code do})
 * @param waitFor a condition to wait for after the actions, or null
 * @param show    the view to switch to and what to highlight there, or null (stay where the window is)
 * @param expect  the checks on real figures once the actions and the wait are over
 */
public record Step(LocalText localSay, List<Action> actions, WaitFor waitFor, Show show, List<Expectation> expect) {
    public Step {
        actions = List.copyOf(actions);
        expect = List.copyOf(expect);
    }

    /** The narration in the window's language. */
    public String say() {
        return localSay.text();
    }

    /** One line per action, for the narration panel, e.g. {@code drain demo-c}. */
    public List<String> actionLines() {
        return actions.stream().map(Action::describe).toList();
    }

    /** The wait, as the narration panel says it, or null. */
    public String waitLine() {
        return waitFor == null ? null : waitFor.describe();
    }

    public int expectations() {
        return expect.size();
    }
}
