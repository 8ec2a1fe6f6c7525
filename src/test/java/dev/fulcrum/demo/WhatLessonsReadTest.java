package dev.fulcrum.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The two figures a lesson reads from the demo package: what a demo backend received, by method, as requests arrive;
 * and each request of workshop traffic as it ends, with when it was sent.
 */
class WhatLessonsReadTest {
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private static int send(String url, String method) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5));
        b = method.equals("POST") ? b.POST(HttpRequest.BodyPublishers.ofString("{}")) : b.GET();
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void aDemoBackendCountsTheApplicationRequestsItReceivesByMethod() throws Exception {
        try (DemoBackend d = DemoBackend.start(new DemoSpec("demo-a", 0, 1, 0, 1.0))) {
            send(d.url() + "/x", "GET");
            send(d.url() + "/x", "POST");
            send(d.url() + "/echo", "POST");
            send(d.url() + "/health", "GET");
            send(d.url() + "/metrics.json", "GET");
            // the failures (errorRate 1) count too: they were received
            assertThat(d.receivedByMethod()).containsExactlyInAnyOrderEntriesOf(java.util.Map.of("GET", 1L, "POST", 2L));
        }
    }

    @Test
    void everyRequestOfTheTrafficIsToldAsItEndsWithWhenItWasSent() throws Exception {
        try (DemoBackend d = DemoBackend.start(DemoSpec.of("demo-a", 0, 1))) {
            List<TrafficAnswer> answers = new CopyOnWriteArrayList<>();
            long before = System.nanoTime();
            TrafficGenerator g = TrafficGenerator.create(TrafficSettings.defaults(URI.create(d.url())).withRate(100)
                    .withDuration(Duration.ofMillis(300)).withPostShare(0.5)).onAnswer(answers::add);
            TrafficSnapshot last = g.start().done().get(30, TimeUnit.SECONDS);
            assertThat(answers).hasSize((int) last.completed()).allSatisfy(a -> {
                assertThat(a.answered()).isTrue();
                assertThat(a.status()).isEqualTo(200);
                assertThat(a.backend()).isEqualTo("-"); // straight to the backend: no proxy named one
                assertThat(a.sentNanos() - before).isPositive();
            });
            assertThat(d.receivedByMethod().values().stream().mapToLong(Long::longValue).sum())
                    .isEqualTo(last.sent());
        }
    }
}
