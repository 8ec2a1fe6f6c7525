#!/usr/bin/env bash
# Where a proxied request's CPU goes on this machine, nginx beside Fulcrum on the same two backends: per
# request, the TCP segments sent (nstat), wrk's CPU (GNU time), the proxy's and the backends' CPU (their
# threads' utime+stime in /proc) and the machine's softirq and idle time (/proc/stat). Fulcrum is warmed up
# for 30 s first (the JIT), then rounds alternate nginx, Fulcrum.
#
#   bench/cpu-split.sh [seconds=10] [rounds=2] [connections=50]
#
# Needs: nginx, wrk, nstat (iproute2), /usr/bin/time (Debian packages), and target/fulcrum.jar. Loopback only.
set -euo pipefail
SECS=${1:-10}; ROUNDS=${2:-2}; CONNS=${3:-50}
B1=19101; B2=19102; NGINX=19180; FULCRUM=19190; ADMIN=19191
. "$(dirname "$0")/lib.sh"
needs wrk nginx nstat
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 1; }
start_backends $B1 $B2
start_nginx_proxy $NGINX $B1 $B2
two_backend_config "$WORK/fulcrum.json" $FULCRUM $ADMIN $B1 $B2
start_fulcrum "$WORK/fulcrum.json"
wrk -t2 -c"$CONNS" -d30s "http://127.0.0.1:$FULCRUM/" > /dev/null
wrk -t2 -c"$CONNS" -d3s "http://127.0.0.1:$NGINX/" > /dev/null
NGINX_WORKERS=$(pgrep -P "$(cat "$WORK/proxy/nginx.pid")" | tr '\n' ' ')
BACKEND_WORKERS=$(pgrep -P "$(cat "$WORK/backends/nginx.pid")" | tr '\n' ' ')

ticks() { # PID... -> utime+stime of all their threads, in clock ticks (fields counted after the
  # thread's name, which may hold spaces: "XNIO-1 I/O-1")
  local s=0 t
  for p in "$@"; do for t in /proc/"$p"/task/*; do s=$((s + $(sed 's/.*) //' "$t/stat" | awk '{print $12 + $13}'))); done; done
  echo $s
}
stat_cpu() { awk '/^cpu / {print $5, $8}' /proc/stat; } # idle softirq

for r in $(seq 1 "$ROUNDS"); do
  for target in "nginx $NGINX $NGINX_WORKERS" "fulcrum $FULCRUM $FULCRUM_PID"; do
    set -- $target; name=$1; port=$2; shift 2
    nstat -n > /dev/null
    read -r idle0 sirq0 < <(stat_cpu); p0=$(ticks "$@"); b0=$(ticks $BACKEND_WORKERS)
    out=$( { /usr/bin/time -f "WRKCPU %U %S" wrk -t2 -c"$CONNS" -d"${SECS}s" "http://127.0.0.1:$port/"; } 2>&1 )
    read -r idle1 sirq1 < <(stat_cpu); p1=$(ticks "$@"); b1=$(ticks $BACKEND_WORKERS)
    segs=$(nstat | awk '/TcpOutSegs/ {print $2}')
    n=$(echo "$out" | awk '/requests in/ {print $1}')
    wrk_cpu=$(echo "$out" | awk '/WRKCPU/ {print $2 + $3}')
    python3 -c "
n, tick = $n, 1e6 / $(getconf CLK_TCK)
print('%-7s round $r: %8.0f req/s | per request: %.2f segments, wrk %.2f us, proxy %.2f us, backends %.2f us, softirq %.2f us | machine idle %.1f%%'
      % ('$name', n / $SECS, $segs / n, $wrk_cpu * 1e6 / n, ($p1 - $p0) * tick / n, ($b1 - $b0) * tick / n,
         ($sirq1 - $sirq0) * tick / n, ($idle1 - $idle0) * tick / 1e4 / $SECS / $(nproc)))"
  done
done
