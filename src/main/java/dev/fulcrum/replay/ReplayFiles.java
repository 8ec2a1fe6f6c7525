package dev.fulcrum.replay;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A recording file as a live replay reads it ({@code --replay FILE [--format F] [--log-format TEXT]}, the Traffic tab's
 * <i>Replay a recording…</i>): read once through {@link Recordings#open} to count its requests and its bad lines
 * before anything is sent, then opened again for each pass of the {@link LiveReplay}.
 */
public final class ReplayFiles {
    private ReplayFiles() {
    }

    /**
     * A recording read through once.
     *
     * @param file       the file
     * @param source     its requests, opened anew for each pass
     * @param span       how many requests and when the first and last arrived
     * @param format     the format it was read as
     * @param problems   the first bad lines, {@code FILE:LINE: reason}
     * @param bad        how many lines (or HAR entries) could not be read
     * @param badSummary {@link Recording#badSummary()}
     * @param tooManyBad more than 1% of them were bad ({@link Recording#tooManyBad()}): the command line refuses it
     */
    public record Checked(Path file, LiveReplay.Source source, LiveReplay.Span span, RecordingFormat format, List<String> problems,
                          long bad, String badSummary, boolean tooManyBad) {
    }

    /**
     * Reads {@code file} through once.
     *
     * @param format    {@code har}, {@code nginx}, {@code fulcrum-json}, or null to detect it
     * @param logFormat the nginx {@code log_format}, or null for {@code combined}
     * @throws IllegalArgumentException for an unknown format or a log format that does not compile (the message names
     *                                  the flag)
     * @throws IOException              when the file cannot be read
     */
    public static Checked check(Path file, String format, String logFormat) throws IOException {
        LiveReplay.Source source = source(file, format, logFormat);
        try (Recording r = Recordings.open(file, format, logFormat)) {
            LiveReplay.Span span = LiveReplay.Span.of(r);
            return new Checked(file, source, span, r.format(), r.problems(), r.bad(), r.badSummary(), r.tooManyBad());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** {@code file}'s requests, in file order, each {@link LiveReplay.Source#open()} a new read of it. */
    public static LiveReplay.Source source(Path file, String format, String logFormat) {
        return () -> {
            Recording r = Recordings.open(file, format, logFormat);
            Stream<RecordedRequest> s = StreamSupport.stream(
                    Spliterators.spliteratorUnknownSize(r, Spliterator.ORDERED | Spliterator.NONNULL), false);
            return s.onClose(() -> {
                try {
                    r.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        };
    }
}
