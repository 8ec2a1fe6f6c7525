#!/usr/bin/env bash
# 1000 backends: headless Fulcrum with a consistent-hash ring of 1000 backends x 160 virtual nodes
# (160,000 points) in front of two nginx ports, under wrk load, first with a steady membership and then
# while a client adds, removes and reweights backends through the admin API as fast as it can. Reports
# requests/s, p99 and max latency for both, and how many membership changes were made: a change rebuilds the
# ring on the engine's control thread, and requests must not stall behind it.
#
#   bench/scale.sh [seconds=20]
#
# Needs: nginx, wrk, curl, python3 and target/fulcrum.jar. Loopback only; stops by itself.
set -euo pipefail
SECS=${1:-20}
B1=19601; B2=19602; FULCRUM=19690; ADMIN=19691
. "$(dirname "$0")/lib.sh"
needs wrk nginx curl python3
start_backends $B1 $B2
python3 - "$WORK/fulcrum.json" "$FULCRUM" "$ADMIN" "$B1" "$B2" <<'PY'
import json, sys
out, port, admin, b1, b2 = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], sys.argv[5]
backends = [{"id": f"b{i:04d}", "url": f"http://127.0.0.1:{b1 if i % 2 == 0 else b2}"} for i in range(1000)]
json.dump({"proxy": {"port": port, "accessLog": "/dev/null"}, "admin": {"port": admin},
           "healthCheck": {"enabled": False},
           "strategy": {"type": "consistent-hash", "key": "path", "virtualNodes": 160},
           "backends": backends}, open(out, "w"))
PY
start_fulcrum "$WORK/fulcrum.json"

# wrk with a different path per request, so the ring spreads requests over all backends
cat > "$WORK/paths.lua" <<'LUA'
local n = 0
request = function() n = n + 1; return wrk.format("GET", "/item/" .. n) end
LUA
run() { # label
  local out; out=$(wrk -t2 -c50 -d"${SECS}s" --latency -s "$WORK/paths.lua" "http://127.0.0.1:$FULCRUM/")
  local rps p99 max non2xx
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(echo "$out" | awk '$1=="99%" {print $2}')
  max=$(echo "$out" | awk '$1=="Latency" {print $4}')
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $NF}')
  echo "| $1 | $rps | $p99 | $max | ${non2xx:-0} |"
}
churn() { # add, reweight and remove backends until told to stop; counts changes
  local n=0 i=0
  while [ ! -f "$WORK/stop" ]; do
    id="extra$((i % 50))"; i=$((i + 1))
    curl -s -o /dev/null -X POST -H 'Content-Type: application/json' \
      -d "{\"id\":\"$id\",\"url\":\"http://127.0.0.1:$B1\",\"weight\":1}" "http://127.0.0.1:$ADMIN/api/backends" && n=$((n + 1))
    curl -s -o /dev/null -X PUT -H 'Content-Type: application/json' -d "{\"weight\":$((i % 5 + 1))}" \
      "http://127.0.0.1:$ADMIN/api/backends/b0$((i % 900 + 100))/weight" && n=$((n + 1))
    curl -s -o /dev/null -X DELETE "http://127.0.0.1:$ADMIN/api/backends/$id" && n=$((n + 1))
  done
  echo "$n" > "$WORK/changes"
}
wrk -t2 -c50 -d5s -s "$WORK/paths.lua" "http://127.0.0.1:$FULCRUM/" > /dev/null   # warm up
echo "| membership | requests/s | p99 | max | non-2xx |"
echo "|---|---|---|---|---|"
run "steady (1000 backends)"
churn & cpid=$!
run "changing (add, reweight, remove)"
touch "$WORK/stop"; wait "$cpid"
echo "membership and weight changes during the second run: $(cat "$WORK/changes") in ${SECS} s"
