#!/usr/bin/env bash
# A 10% mirror (routes[].mirror) to a backend of its own, killed under load and started again: the clients never see
# the mirror's failure, copies in flight at the kill are counted failed once, later ones are dropped while the mirror
# backend is down, and no copy fails while it is healthy (nginx's Connection: close after keepalive_requests answers
# included). Prints the mirror backend's state and the mirror's counts from /api/state before the kill, 4 s after it, 5 s after the restart, and
# wrk's summary.
#
#   bench/mirror-kill.sh [seconds=14]
#
# Needs: nginx and wrk (Debian packages), and target/fulcrum.jar. Loopback only; stops by itself.
set -euo pipefail
SECS=${1:-14}
B1=19101; B2=19102; B3=19103; M=19104; FULCRUM=19190; ADMIN=19191
. "$(dirname "$0")/lib.sh"
needs wrk nginx
start_backends $B1 $B2 $B3
mkdir -p "$WORK/mirror"
cat > "$WORK/mirror/nginx.conf" <<CONF
worker_processes 1; pid $WORK/mirror/nginx.pid; error_log $WORK/mirror/error.log warn;
events { worker_connections 4096; }
http { access_log off; server { listen 127.0.0.1:$M; location / { return 200 "mirror\n"; } } }
CONF
start_mirror() { nginx -p "$WORK/mirror" -c "$WORK/mirror/nginx.conf" -g 'daemon off;' & MIRROR_PID=$!; pids+=($MIRROR_PID); }
start_mirror
ROUTES=', "pools": { "stable": { "strategy": { "type": "round-robin" }, "backends": [
  { "id": "s1", "url": "http://127.0.0.1:'$B1'" }, { "id": "s2", "url": "http://127.0.0.1:'$B2'" } ] },
  "shadow": { "backends": [ { "id": "m1", "url": "http://127.0.0.1:'$M'" } ] } },
  "routes": [ { "pathPrefix": "/", "pool": "stable", "mirror": { "pool": "shadow", "percent": 10 } } ]'
two_backend_config "$WORK/fulcrum.json" $FULCRUM $ADMIN $B1 $B2 /dev/null "" "$ROUTES"
start_fulcrum "$WORK/fulcrum.json"
wrk -t1 -c50 -d${SECS}s --latency "http://127.0.0.1:$FULCRUM/" > "$WORK/wrk.txt" & WRK=$!
state() {
  curl -s "http://127.0.0.1:$ADMIN/api/state" | python3 -c "import json, sys; d = json.load(sys.stdin)
m1 = [b for b in d['backends'] if b['id'] == 'm1'][0]
print('$1'.ljust(16), 'm1', m1['state'], 'mirror', d['pools']['shadow']['mirror'], 'client requests', d['requests']['total'],
      'client errors', d['requests']['errors'])"
}
sleep 4; state "before the kill"
kill "$MIRROR_PID"; wait "$MIRROR_PID" 2>/dev/null || true
sleep 4; state "killed 4 s"
start_mirror
sleep 5; state "restarted 5 s"
wait $WRK
grep -E "Requests/sec|Non-2xx|Socket errors|99%" "$WORK/wrk.txt"
