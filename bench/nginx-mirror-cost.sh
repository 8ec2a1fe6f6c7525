#!/usr/bin/env bash
# What a 10% mirror costs nginx itself, for the same comparison bench/proxy-vs-nginx.sh makes of Fulcrum with
# B_CONFIG_EXTRA="$(cat bench/routing-extra.json)": nginx proxying to the benchmark's two backends, beside the same
# nginx copying one request in ten (split_clients on $request_id) to a third upstream with `mirror`. Rounds are
# interleaved and medians reported; everything stops by itself; only 127.0.0.1 is used.
#
#   bench/nginx-mirror-cost.sh [seconds=8] [rounds=6] [connections=50]
set -euo pipefail
SECS=${1:-8}
ROUNDS=${2:-6}
CONNS=${3:-50}
B1=19101; B2=19102; PLAIN=19180; MIRRORED=19182
. "$(dirname "$0")/lib.sh"
needs wrk nginx
start_backends $B1 $B2
start_nginx_proxy $PLAIN $B1 $B2
NGINX_DIR=mirrored NGINX_LOCATION='mirror /_mirror;' \
  NGINX_HTTP='upstream shadow { server 127.0.0.1:'$B2'; keepalive 512; } split_clients "$request_id" $copy { 10% 1; * 0; }' \
  NGINX_SERVER='location = /_mirror { internal; if ($copy = 0) { return 204; }
    proxy_pass http://shadow$request_uri; proxy_http_version 1.1; proxy_set_header Connection "";
    proxy_set_header X-Fulcrum-Mirror 1; }' \
  start_nginx_proxy $MIRRORED $B1 $B2
sleep 1
for port in $PLAIN $MIRRORED; do wrk -t2 -c$CONNS -d3s "http://127.0.0.1:$port/" > /dev/null; done
plain=(); mirrored=()
for r in $(seq 1 "$ROUNDS"); do
  a=$(wrk -t2 -c$CONNS -d${SECS}s "http://127.0.0.1:$PLAIN/" | awk '/Requests\/sec/ {print $2}')
  b=$(wrk -t2 -c$CONNS -d${SECS}s "http://127.0.0.1:$MIRRORED/" | awk '/Requests\/sec/ {print $2}')
  echo "round $r: nginx $a req/s, nginx with a 10% mirror $b req/s, ratio $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", b/a}')"
  plain+=("$a"); mirrored+=("$b")
done
median() { printf '%s\n' "$@" | sort -n | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
echo "median: nginx $(median "${plain[@]}"), with a 10% mirror $(median "${mirrored[@]}")"
