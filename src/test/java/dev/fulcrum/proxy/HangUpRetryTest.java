package dev.fulcrum.proxy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.fulcrum.engine.breaker.BreakerSpec;
import dev.fulcrum.engine.EngineSettings.OutlierSpec;
import dev.fulcrum.engine.EngineSettings;
import dev.fulcrum.testkit.RawBackend;
import dev.fulcrum.testkit.RecordingBackend;
import dev.fulcrum.testkit.RunningFulcrum;
import dev.fulcrum.testkit.TestSettings;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A backend that reads a request and hangs up without answering (a crashing or restarting process): the GET
 * goes to the other backend and only the one that hung up is blamed: a failure is reported once, and the retry
 * it starts is not blamed for it (issue 7).
 */
class HangUpRetryTest {
    private RunningFulcrum f;

    @AfterEach
    void stop() {
        if (f != null) {
            f.close();
        }
    }

    @Test
    void aGetWhoseBackendHangsUpIsRetriedAndTheBackendThatAnswersIsNotBlamed() throws Exception {
        RawBackend hangUp = RawBackend.start(RawBackend.hangUp());
        RecordingBackend healthy = new RecordingBackend("healthy");
        // no ejection, no breaker: round-robin keeps sending every other request to the backend that hangs up
        f = RunningFulcrum.bareProxy(TestSettings.proxy().maxRetries(1).readMs(10_000).build())
                .engine(EngineSettings.DEFAULT.withOutlier(OutlierSpec.DISABLED).withBreaker(BreakerSpec.DISABLED))
                .backend("hangup", hangUp).backend(healthy).start();

        for (int i = 0; i < 10; i++) {
            HttpResponse<String> r = f.http().send(HttpRequest.newBuilder(URI.create(f.url() + "/x"))
                    .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("GET %d: %s", i, r.body()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("healthy");
        }

        assertThat(hangUp.requests.size()).as("requests the hang-up backend read and dropped").isPositive();
        assertThat(f.backend("hangup").failures()).isEqualTo(hangUp.requests.size());
        assertThat(f.backend("healthy").failures()).as("failures blamed on the backend that answered").isZero();
        assertThat(healthy.requests.get()).isEqualTo(10);
        await().atMost(Duration.ofSeconds(10)).until(() -> f.inFlight() == 0);
    }
}
