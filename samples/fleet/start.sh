#!/usr/bin/env bash
# Many instances (README, docs/REFERENCE.md §8): a one-member etcd in a temp dir, this folder's fulcrum.json put at
# /fulcrum/demo/config, and two headless Fulcrums sharing it: proxies on 8180 and 8280, admin APIs on 8181 and 8281
# (--proxy-port and --admin-port over the config's). Prints their ready lines, then waits; Ctrl-C stops everything and
# deletes the temp dir. Needs etcd and etcdctl (Debian: apt-get install etcd-server etcd-client) and the built jar.
#
#   samples/fleet/start.sh          FULCRUM_JAR=... ETCD_PORT=12379 to change them
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jar=${FULCRUM_JAR:-$here/../../target/fulcrum.jar}
etcd_port=${ETCD_PORT:-12379}
peer_port=$((etcd_port + 1))
endpoint=http://127.0.0.1:$etcd_port
for tool in etcd etcdctl java; do
  command -v "$tool" > /dev/null || { echo "start.sh: $tool not found" >&2; exit 1; }
done
[ -f "$jar" ] || { echo "start.sh: no $jar (build it: mvn -q package -DskipTests)" >&2; exit 1; }

work=$(mktemp -d -t fulcrum-fleet-XXXXXX)
pids=()
stop() {
  trap - EXIT INT TERM
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2> /dev/null || true
  wait 2> /dev/null || true
  rm -rf "$work"
}
trap stop EXIT
trap 'echo; echo "stopping"; exit 0' INT TERM

etcd --name fleet --data-dir "$work/etcd" \
  --listen-client-urls "$endpoint" --advertise-client-urls "$endpoint" \
  --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
  --initial-cluster "fleet=http://127.0.0.1:$peer_port" > "$work/etcd.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do
  ETCDCTL_API=3 etcdctl --endpoints "$endpoint" endpoint health > /dev/null 2>&1 && break
  sleep 0.2
done
ETCDCTL_API=3 etcdctl --endpoints "$endpoint" put /fulcrum/demo/config "$(cat "$here/fulcrum.json")" > /dev/null
echo "etcd on $endpoint ($work/etcd.log); config at /fulcrum/demo/config"

for i in 1 2; do
  java -jar "$jar" --headless --config "etcd://127.0.0.1:$etcd_port/fulcrum/demo" \
    --proxy-port "8${i}80" --admin-port "8${i}81" --instance-id "fleet-$i" \
    > "$work/fulcrum-$i.ready" 2> "$work/fulcrum-$i.log" &
  pids+=($!)
done
for i in 1 2; do
  for _ in $(seq 1 150); do
    [ -s "$work/fulcrum-$i.ready" ] && break
    kill -0 "${pids[$i]}" 2> /dev/null || { echo "fleet-$i stopped:" >&2; cat "$work/fulcrum-$i.log" >&2; exit 1; }
    sleep 0.2
  done
  [ -s "$work/fulcrum-$i.ready" ] || { echo "fleet-$i: no ready line in 30 s" >&2; exit 1; }
  echo "fleet-$i: $(cat "$work/fulcrum-$i.ready")"
done
echo "logs in $work; Ctrl-C stops etcd and both instances"
wait
