package dev.fulcrum.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * An nginx access log, a line at a time, read by its compiled {@link NginxLogFormat}. Lines whose time has whole
 * seconds are held until the second ends, to spread them across it (see {@link NginxLogFormat}): the lines of one
 * second are all it holds.
 */
final class NginxReader extends Recording {
    private final BufferedReader in;
    private final NginxLogFormat.Parser parser;
    private long line;
    private final ArrayDeque<RecordedRequest> ready = new ArrayDeque<>();
    private final List<RecordedRequest> second = new ArrayList<>();
    private long secondEnd = Long.MIN_VALUE;

    NginxReader(Path file, NginxLogFormat format) throws IOException {
        super(file, RecordingFormat.NGINX);
        this.in = lines();
        this.parser = format.parser();
    }

    @Override
    RecordedRequest read() throws IOException {
        while (ready.isEmpty()) {
            String s = in.readLine();
            if (s == null) {
                spread();
                return ready.poll();
            }
            line++;
            if (s.isBlank()) {
                continue;
            }
            RecordedRequest r;
            try {
                r = parser.parse(s, line);
            } catch (NginxLogFormat.BadLine e) {
                bad(line, e.getMessage());
                continue;
            }
            counted();
            if (parser.end != secondEnd || !parser.wholeSeconds) {
                spread();
            }
            if (parser.wholeSeconds) {
                second.add(r);
                secondEnd = parser.end;
            } else {
                ready.add(r);
            }
        }
        return ready.poll();
    }

    /** The held lines of one second, spread across it: the k-th of n is moved (k + 1/2)/n of a second later. */
    private void spread() {
        int n = second.size();
        for (int k = 0; k < n; k++) {
            RecordedRequest r = second.get(k);
            long offset = (2L * k + 1) * 1_000_000L / (2L * n);
            ready.add(new RecordedRequest(r.atMicros() + offset, r.method(), r.target(), r.headers(), r.body(),
                    r.serviceMs(), r.upstream(), r.status(), r.clientIp(), r.line()));
        }
        second.clear();
        secondEnd = Long.MIN_VALUE;
    }

    @Override
    public void close() throws IOException {
        in.close();
        super.close();
    }
}
