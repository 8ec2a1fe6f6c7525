#!/usr/bin/env bash
# Latency Fulcrum adds at a fixed, moderate rate (the target: p99 added over direct <= 1 ms), beside nginx.
# An open-loop client (bench/FixedRate.java, wrk2-style: latency counts from when each request was due)
# sends RATE requests/s over 10 keep-alive connections for SECONDS, directly to a backend, through nginx
# (upstream keepalive) and through headless Fulcrum, in interleaved rounds; medians are reported.
#
#   bench/latency-added.sh [rate=2000] [seconds=15] [rounds=3]
#
# Needs: nginx (Debian package), java 17, and target/fulcrum.jar (mvn -q package -DskipTests). Loopback only.
set -euo pipefail
RATE=${1:-2000}
SECS=${2:-15}
ROUNDS=${3:-3}
B1=19701; B2=19702; NGINX=19780; FULCRUM=19790; ADMIN=19791
. "$(dirname "$0")/lib.sh"
needs nginx
mkdir -p "$WORK/client"
start_backends $B1 $B2
start_nginx_proxy $NGINX $B1 $B2
two_backend_config "$WORK/fulcrum.json" $FULCRUM $ADMIN $B1 $B2
start_fulcrum "$WORK/fulcrum.json"
javac -d "$WORK/client" "$ROOT/bench/FixedRate.java"
client() { java -cp "$WORK/client" FixedRate "$1" "$RATE" 10 "$2"; }

# warm up the JIT of both the client and Fulcrum. At 2000 req/s HotSpot's C2 compiler is still at work 20-30 s
# in (5% of a core, taken from the threads being timed), so Fulcrum first gets 30 s at full load from wrk
# when it is installed: a server is measured in its steady state, as JMH's warm-up iterations do
if command -v wrk > /dev/null; then
  wrk -t2 -c50 -d"${WARMUP:-30}s" "http://127.0.0.1:$FULCRUM/" > /dev/null
fi
client "http://127.0.0.1:$FULCRUM/" 5 > /dev/null
client "http://127.0.0.1:$NGINX/" 2 > /dev/null

for r in $(seq 1 "$ROUNDS"); do
  for target in direct:$B1 nginx:$NGINX fulcrum:$FULCRUM; do
    name=${target%%:*}
    out=$(client "http://127.0.0.1:${target#*:}/" "$SECS")
    echo "$name round $r: p50 p99 p99.9 max (ms) requests failed = $out" >&2
    echo "$name $out" >> "$WORK/results"
  done
done

python3 - "$WORK/results" "$RATE" "$SECS" "$ROUNDS" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
    name, p50, p99, p999, mx, n, failed = line.split()
    rows.setdefault(name, []).append((float(p50), float(p99), float(p999), int(failed)))
med = {k: [statistics.median(r[i] for r in v) for i in range(3)] + [sum(r[3] for r in v)] for k, v in rows.items()}
print(f"{sys.argv[2]} req/s fixed rate, 10 connections, {sys.argv[3]} s, {sys.argv[4]} interleaved rounds, medians (ms)")
print("| target | p50 | p99 | p99.9 | failed | p99 added over direct |")
print("|---|---|---|---|---|---|")
for k in ("direct", "nginx", "fulcrum"):
    p50, p99, p999, failed = med[k]
    print(f"| {k} | {p50:.3f} | {p99:.3f} | {p999:.3f} | {failed} | {p99 - med['direct'][1]:+.3f} |")
PY
