package dev.fulcrum.admin.haproxy;

/**
 * One server row of {@code show stat} (the CSV the stats page also serves), typed.
 *
 * @param backend        {@code pxname}, the HAProxy backend the server belongs to
 * @param server         {@code svname}
 * @param status         {@code status} as HAProxy prints it: UP, DOWN, DRAIN, NOLB, MAINT, "no check",
 *                       or a transition such as "UP 1/3" (up, one failed check of three before DOWN)
 * @param weight         {@code weight}: the effective weight HAProxy balances with (0 while draining)
 * @param userWeight     {@code uweight} (HAProxy 2.4+): the weight last set by config or {@code set server
 *                       ... weight}; equals {@code weight} on versions without the column
 * @param currentSessions {@code scur}: requests in progress on the server right now
 * @param queued         {@code qcur}: requests waiting in this server's queue
 * @param rate           {@code rate}: sessions per second over the last second
 * @param totalSessions  {@code stot}: sessions since start
 * @param connectErrors  {@code econ}
 * @param responseErrors {@code eresp}
 * @param http5xx        {@code hrsp_5xx}
 * @param checkStatus    {@code check_status} (L7OK, L4CON, INI ...), empty when checks are off or in maintenance
 * @param checkCode      {@code check_code}, the HTTP status of the last layer-7 check, or null
 * @param checkDurationMs {@code check_duration}, or -1 when unknown
 * @param lastChangeSec  {@code lastchg}: seconds since the last UP/DOWN transition, or -1
 * @param backup         {@code bck} is 1
 * @param address        {@code addr}, e.g. 127.0.0.1:8081 (empty for servers without an address yet)
 * @param maxConn        {@code slim} (the server's maxconn), or null when unlimited
 * @param responseTimeMs {@code rtime}: average response time over the last 1024 requests, in ms
 * @param checkRunning   a check was under way ({@code check_status} "* L7OK"): the status is the last result and
 *                       the code is unknown (null)
 */
public record ServerStat(String backend, String server, String status, int weight, int userWeight,
                         int currentSessions, int queued, int rate, long totalSessions, long connectErrors,
                         long responseErrors, long http5xx, String checkStatus, Integer checkCode,
                         long checkDurationMs, long lastChangeSec, boolean backup, String address, Integer maxConn,
                         long responseTimeMs, boolean checkRunning) {

    /** True when HAProxy runs health checks on this server and has a result (not off, not still initialising). */
    public boolean checked() {
        return checkStatus != null && !checkStatus.isEmpty() && !checkStatus.startsWith("INI");
    }

    /** The operational side of {@link #status}: "DOWN", "DOWN 1/2" and "MAINT"-less down states are down. */
    public boolean operationallyDown() {
        return status.startsWith("DOWN");
    }
}
