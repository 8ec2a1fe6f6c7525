package dev.fulcrum.replay;

import java.io.BufferedReader;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.zip.GZIPInputStream;

/**
 * A recording being read, one {@link RecordedRequest} at a time, in the order the file has them: nothing but the
 * current line (or HAR entry) is held in memory, so a file of any size streams. A line that cannot be read is
 * counted, its problem kept as {@code FILE:LINE: reason} (the first {@value #KEPT_PROBLEMS}; all are counted), and
 * skipped. A file that ends in {@code .gz} is read through gzip.
 *
 * <p>Example: {@code try (Recording r = Recordings.open(path, null, null)) { while (r.hasNext()) use(r.next()); }},
 * then {@code r.bad()} of {@code r.entries()} could not be read, and {@link #tooManyBad()} says whether that is over
 * the 1% a run accepts (the command line then exits 2).
 *
 * <p>One thread reads it; {@link #bytesRead} and {@link #size} may be read from any (a progress bar).
 */
public abstract class Recording implements Iterator<RecordedRequest>, AutoCloseable {
    /** Problems kept word for word; more are only counted. */
    public static final int KEPT_PROBLEMS = 100;
    /** The share of entries that may be bad before a run is refused: more than 1 in 100. */
    public static final double MAX_BAD_SHARE = 0.01;

    private final Path file;
    private final RecordingFormat format;
    private final CountingStream counted;
    private final long size;
    private final List<String> problems = new ArrayList<>();
    private long entries;
    private long bad;
    private RecordedRequest next;
    private boolean ended;

    Recording(Path file, RecordingFormat format) throws IOException {
        this.file = file;
        this.format = format;
        this.size = Files.size(file);
        this.counted = new CountingStream(Files.newInputStream(file));
    }

    /** What the reader reads: the file's bytes, through gzip when its name ends in {@code .gz}. */
    InputStream stream() throws IOException {
        return gzipped(file) ? new GZIPInputStream(counted, 1 << 16) : counted;
    }

    /** The file's text lines, UTF-8 (a byte that is no UTF-8 becomes U+FFFD rather than failing the file). */
    BufferedReader lines() throws IOException {
        return new BufferedReader(new InputStreamReader(stream(), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE)),
                1 << 16);
    }

    static InputStream openStream(Path file, Void unused) throws IOException {
        InputStream in = Files.newInputStream(file);
        return gzipped(file) ? new GZIPInputStream(in, 1 << 16) : in;
    }

    private static boolean gzipped(Path file) {
        return file.getFileName() != null && file.getFileName().toString().endsWith(".gz");
    }

    /**
     * The next request of the file, or null at its end. Calls {@link #bad} for each line it skips and
     * {@link #counted()} for each it returns.
     */
    abstract RecordedRequest read() throws IOException;

    /** A line (or entry) read and skipped: counted, and kept as {@code FILE:LINE: reason} while few. */
    final void bad(long line, String reason) {
        entries++;
        bad++;
        if (problems.size() < KEPT_PROBLEMS) {
            problems.add(file + ":" + line + ": " + reason);
        }
    }

    /** A line (or entry) read into a request. */
    final void counted() {
        entries++;
    }

    @Override
    public final boolean hasNext() {
        if (next == null && !ended) {
            try {
                next = read();
            } catch (IOException e) {
                throw new UncheckedIOException(file + ": " + e.getMessage(), e);
            }
            ended = next == null;
        }
        return next != null;
    }

    @Override
    public final RecordedRequest next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        RecordedRequest r = next;
        next = null;
        return r;
    }

    public final Path file() {
        return file;
    }

    public final RecordingFormat format() {
        return format;
    }

    /** Lines (or HAR entries) read so far, good and bad; blank lines are not counted. */
    public final long entries() {
        return entries;
    }

    /** Of {@link #entries}, those skipped. */
    public final long bad() {
        return bad;
    }

    /** The first {@value #KEPT_PROBLEMS} bad lines, each {@code FILE:LINE: reason}, in file order. */
    public final List<String> problems() {
        return Collections.unmodifiableList(problems);
    }

    /** More than {@link #MAX_BAD_SHARE} of the entries read were bad. */
    public final boolean tooManyBad() {
        return bad > entries * MAX_BAD_SHARE;
    }

    /** The summary of the bad lines, e.g. {@code 12 of 1000 lines could not be read (1.2%, more than 1%)}. */
    public final String badSummary() {
        return String.format(java.util.Locale.ROOT, "%s: %d of %d %s could not be read (%.1f%%%s)", file, bad,
                entries, format == RecordingFormat.HAR ? "entries" : "lines",
                entries == 0 ? 0.0 : 100.0 * bad / entries, tooManyBad() ? ", more than 1%" : "");
    }

    /** Bytes of the file read so far (of its compressed bytes, for a .gz); any thread. */
    public final long bytesRead() {
        return counted.count;
    }

    /** The file's size in bytes. */
    public final long size() {
        return size;
    }

    /** {@link #bytesRead} over {@link #size}, 0..1. */
    public final double fraction() {
        return size == 0 ? 1 : Math.min(1, (double) bytesRead() / size);
    }

    @Override
    public void close() throws IOException {
        counted.close();
    }

    /** Counts the bytes read through it, for progress. */
    private static final class CountingStream extends FilterInputStream {
        volatile long count;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long s = super.skip(n);
            count += s;
            return s;
        }
    }
}
