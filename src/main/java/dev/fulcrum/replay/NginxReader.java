package dev.fulcrum.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;

/** An nginx access log, a line at a time, read by its compiled {@link NginxLogFormat}. */
final class NginxReader extends Recording {
    private final BufferedReader in;
    private final NginxLogFormat.Parser parser;
    private long line;

    NginxReader(Path file, NginxLogFormat format) throws IOException {
        super(file, RecordingFormat.NGINX);
        this.in = lines();
        this.parser = format.parser();
    }

    @Override
    RecordedRequest read() throws IOException {
        String s;
        while ((s = in.readLine()) != null) {
            line++;
            if (s.isBlank()) {
                continue;
            }
            try {
                RecordedRequest r = parser.parse(s, line);
                counted();
                return r;
            } catch (NginxLogFormat.BadLine e) {
                bad(line, e.getMessage());
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        in.close();
        super.close();
    }
}
