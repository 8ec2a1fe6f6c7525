#!/usr/bin/env bash
# How fast a change written to etcd reaches every instance sharing one config (issue 35: within a second, p99 over 100
# changes): a one-member etcd, two headless Fulcrums on --config etcd://.../bench, and bench/EtcdPropagation.java
# setting backend b1's weight in the config CHANGES times, timing each from the put's answer to each instance's
# weight event. Everything stops by itself; only 127.0.0.1 is used.
#
#   bench/etcd-propagation.sh [changes=100]
set -euo pipefail
CHANGES=${1:-100}
B1=19601; B2=19602; ETCD=19679; PEER=19680
. "$(dirname "$0")/lib.sh"
needs etcd nginx
start_backends $B1 $B2
etcd --data-dir "$WORK/etcd" --listen-client-urls http://127.0.0.1:$ETCD --advertise-client-urls http://127.0.0.1:$ETCD \
  --listen-peer-urls http://127.0.0.1:$PEER --initial-advertise-peer-urls http://127.0.0.1:$PEER \
  --initial-cluster default=http://127.0.0.1:$PEER > "$WORK/etcd.log" 2>&1 & pids+=($!)
for _ in $(seq 1 50); do curl -sf "http://127.0.0.1:$ETCD/health" > /dev/null && break; sleep 0.2; done
cat > "$WORK/fulcrum.json" <<CONF
{ "proxy": { "port": 0, "accessLog": "/dev/null" }, "admin": { "port": 0 }, "strategy": { "type": "round-robin" },
  "backends": [ { "id": "b1", "url": "http://127.0.0.1:$B1", "weight": 1 }, { "id": "b2", "url": "http://127.0.0.1:$B2" } ] }
CONF
ETCDCTL_API=3 etcdctl --endpoints "http://127.0.0.1:$ETCD" put /bench/config "$(cat "$WORK/fulcrum.json")" > /dev/null
admins=()
for i in 1 2; do
  FULCRUM_ARGS="--proxy-port 1961$i --admin-port 1962$i --instance-id bench-$i" \
    start_fulcrum "etcd://127.0.0.1:$ETCD/bench" "$JAR" "fulcrum-$i"
  admins+=("http://127.0.0.1:1962$i")
done
mkdir -p "$WORK/client"
javac -d "$WORK/client" "$ROOT/bench/EtcdPropagation.java"
java -cp "$WORK/client" EtcdPropagation "http://127.0.0.1:$ETCD" /bench/config "$WORK/fulcrum.json" "$CHANGES" "${admins[@]}"
