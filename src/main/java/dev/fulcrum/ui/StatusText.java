package dev.fulcrum.ui;

import dev.fulcrum.admin.EngineState;
import dev.fulcrum.i18n.Texts;

/**
 * A backend's state as the views show it, in the window's language: {@code UP}, {@code DRAINING}... through
 * {@link Texts#word}, and "UP (unverified)" for a backend back from an ejection with nothing shown to work yet
 * ({@link EngineState.BackendInfo#shownState()} says the same in the engine's words).
 */
public final class StatusText {
    private StatusText() {
    }

    public static String shownState(EngineState.BackendInfo b) {
        String state = Texts.word("state", b.state());
        return b.unverified() && "UP".equals(b.state()) ? Texts.t("main.state.unverified", state) : state;
    }

    /** What "unverified" means, for its tooltip ({@link EngineState.BackendInfo#UNVERIFIED_MEANS} in English). */
    public static String unverifiedMeans() {
        return Texts.t("main.state.unverified.tip");
    }
}
