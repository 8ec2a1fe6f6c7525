#!/usr/bin/env bash
# Throughput and tail latency on loopback: direct to a backend, through nginx (upstream keepalive on),
# and through headless Fulcrum (round robin), on the same three backends (an nginx process answering `return 200`);
# beside them Undertow's own reverse proxy and a bare Undertow server answering by itself (the ceiling
# of the stack Fulcrum is built on), the least proxy on an Undertow listener (bench/UndertowBareProxy.java: what
# Fulcrum's features cost) and a bare JDK NIO proxy forwarding bytes (the floor of a proxy in Java here).
# Rounds are interleaved (direct, nginx, fulcrum, direct, ...) and medians reported, because a shared
# 2-core machine is noisy. Everything stops by itself; only 127.0.0.1 is used.
#
#   bench/proxy-vs-nginx.sh [seconds=10] [rounds=3] [connections=50]
#
# TARGETS="nginx fulcrum" (default: all eight) runs only those rows, for more rounds in the same time; nginx is
# always measured, as every ratio is to it. nginx sets X-Forwarded-For, -Proto and -Host as Fulcrum does (the same
# job); nginx-plain is nginx's bare proxy_pass beside it, which sets none.
# WARMUP=seconds (default 30) is the load each Java server gets before the rounds: HotSpot's C2 compiler is
# still busy 15-25 s into a run on this 2-core machine, taking CPU from everything else (a JVM benchmark
# measures the steady state, as JMH's warm-up iterations do; nginx has nothing to warm up), followed by three 1 s
# runs and 5 s of rest, so that what C2 recompiles when wrk first cuts requests off happens before the rounds.
#
# A/B: the row fulcrum-b is a second Fulcrum measured in the same rounds, from B_JAR (default: the same jar, e.g. a
# build of another commit) with B_PROXY_EXTRA more fields in its proxy object (e.g. ', "recentRequests": 0' for the
# request stream off) and B_CONFIG_EXTRA more top-level fields (e.g. ', "pools": {...}, "routes": [...]' for the
# cost of routing: bench/routing-extra.json is a split, two header routes and a 10% mirror over the same backends);
# B_JAVA_OPTS its JVM options instead of FULCRUM_JAVA_OPTS (e.g. an installer flag); its round-by-round ratio to
# fulcrum is printed. A_PROXY_EXTRA and A_CONFIG_EXTRA are the same for the row fulcrum (e.g. both rows on the
# routing config, with AB=REV below: what a commit changed in the cost of routing).
#
# AB=REV (a commit, tag or branch) is the guard against a silent regression: it builds this tree and REV (in
# /tmp/fulcrum-ab-SHA, kept for the next run), measures both as fulcrum and fulcrum-b in the same rounds (their order
# alternating round by round) beside nginx, and prints this tree's throughput and p99 as a ratio to REV's.
# BAD_HOST_FIRST=N sends N requests with a Host the proxy refuses (its own 400), each on its own connection, to each
# Fulcrum before the warm-up: answering errors must not slow the requests after them.
# WRK_THREADS (default 1, as a user's `wrk -t1 -c50`) is wrk's thread count.
#
# Needs: nginx and wrk (Debian packages), java 17, and target/fulcrum.jar (mvn -q package -DskipTests).
set -euo pipefail
SECS=${1:-10}
ROUNDS=${2:-3}
CONNS=${3:-50}
B1=19101; B2=19102; B3=19103; NGINX=19180; NGINX_PLAIN=19181; FULCRUM=19190; ADMIN=19191; STOCK=19195; HELLO=19196; BARE=19197; UBARE=19198
FULCRUM_B=19192; ADMIN_B=19193
. "$(dirname "$0")/lib.sh"
needs wrk nginx
WRK_THREADS=${WRK_THREADS:-1}
if [ -n "${AB:-}" ]; then
  AB_SHA=$(git -C "$ROOT" rev-parse --verify "$AB^{commit}")
  AB_DIR=/tmp/fulcrum-ab-$AB_SHA
  if [ ! -f "$AB_DIR/target/fulcrum.jar" ]; then
    echo "building $AB ($AB_SHA) in $AB_DIR" >&2
    rm -rf "$AB_DIR"
    git clone -q "$ROOT" "$AB_DIR" && git -C "$AB_DIR" checkout -q "$AB_SHA"
    (cd "$AB_DIR" && mvn -q package -DskipTests) >&2
  fi
  echo "building this tree" >&2
  (cd "$ROOT" && mvn -q package -DskipTests) >&2
  B_JAR=$AB_DIR/target/fulcrum.jar
  TARGETS="${TARGETS:-nginx fulcrum} fulcrum-b"
  case " $TARGETS " in *" fulcrum "*) ;; *) TARGETS="$TARGETS fulcrum" ;; esac
fi
TARGETS=${TARGETS:-direct nginx nginx-plain fulcrum undertow-stock undertow-hello undertow-bare-proxy bare-nio-proxy}
case " $TARGETS " in *" nginx "*) ;; *) TARGETS="nginx $TARGETS" ;; esac
want() { case " $TARGETS " in *" $1 "*) return 0 ;; esac; return 1; }
start_backends $B1 $B2 $B3
start_nginx_proxy $NGINX $B1 $B2 $B3
# and nginx's bare proxy_pass, which sets no X-Forwarded-* header (Fulcrum, and the row above, set three)
! want nginx-plain || NGINX_FORWARDED=0 NGINX_DIR=proxy-plain start_nginx_proxy $NGINX_PLAIN $B1 $B2 $B3
export MORE_BACKENDS=$B3
two_backend_config "$WORK/fulcrum.json" $FULCRUM $ADMIN $B1 $B2 /dev/null "${A_PROXY_EXTRA:-}" "${A_CONFIG_EXTRA:-}"
start_fulcrum "$WORK/fulcrum.json"
declare -A CPU_PID=([fulcrum]=$FULCRUM_PID)
if want fulcrum-b; then
  two_backend_config "$WORK/fulcrum-b.json" $FULCRUM_B $ADMIN_B $B1 $B2 /dev/null "${B_PROXY_EXTRA:-}" "${B_CONFIG_EXTRA:-}"
  FULCRUM_JAVA_OPTS="${B_JAVA_OPTS:-${FULCRUM_JAVA_OPTS:-}}" start_fulcrum "$WORK/fulcrum-b.json" "${B_JAR:-$JAR}" fulcrum-b
  CPU_PID[fulcrum-b]=$FULCRUM_PID
fi
# Undertow's own LoadBalancingProxyClient on the same backends: what the same server stack costs without our engine
if want undertow-stock; then
java -Xms256m -Xmx256m -cp "$JAR" "$ROOT/bench/StockUndertowProxy.java" $STOCK "http://127.0.0.1:$B1" "http://127.0.0.1:$B2" "http://127.0.0.1:$B3" > "$WORK/stock" 2>&1 & pids+=($!)
for _ in $(seq 1 100); do grep -q "stock ready" "$WORK/stock" 2>/dev/null && break; sleep 0.2; done
grep -q "stock ready" "$WORK/stock" || { echo "stock Undertow proxy did not start:"; cat "$WORK/stock"; exit 1; }
fi
# and the stack's ceiling: Undertow answering by itself, no backend at all
! want undertow-hello || start_undertow_hello $HELLO

# the floor of a proxy on an Undertow listener: Undertow's server side and the least forwarding
if want undertow-bare-proxy; then
java -Xms256m -Xmx256m -cp "$JAR" "$ROOT/bench/UndertowBareProxy.java" $UBARE $B1 $B2 $B3 > "$WORK/ubare" 2>&1 & pids+=($!)
for _ in $(seq 1 100); do grep -q "undertow-bare ready" "$WORK/ubare" 2>/dev/null && break; sleep 0.2; done
grep -q "undertow-bare ready" "$WORK/ubare" || { echo "bare Undertow proxy did not start:"; cat "$WORK/ubare"; exit 1; }
fi

# and the floor of any proxy in Java here: JDK NIO forwarding bytes with no parsing, headers, routing or metrics
if want bare-nio-proxy; then
java -Xms256m -Xmx256m "$ROOT/bench/BareNioProxy.java" $BARE $B1 $B2 $B3 > "$WORK/bare" 2>&1 & pids+=($!)
for _ in $(seq 1 100); do grep -q "bare ready" "$WORK/bare" 2>/dev/null && break; sleep 0.2; done
grep -q "bare ready" "$WORK/bare" || { echo "bare NIO proxy did not start:"; cat "$WORK/bare"; exit 1; }
fi

for _ in $(seq "${BAD_HOST_FIRST:-0}"); do
  ! want fulcrum || curl -s -o /dev/null -H 'Host: a:0' "http://127.0.0.1:$FULCRUM/"
  ! want fulcrum-b || curl -s -o /dev/null -H 'Host: a:0' "http://127.0.0.1:$FULCRUM_B/"
done
# warm up the JIT and the connection pools
WARMUP=${WARMUP:-30}
! want fulcrum || wrk -t2 -c"$CONNS" -d"${WARMUP}s" "http://127.0.0.1:$FULCRUM/" > /dev/null
! want fulcrum-b || wrk -t2 -c"$CONNS" -d"${WARMUP}s" "http://127.0.0.1:$FULCRUM_B/" > /dev/null
wrk -t2 -c"$CONNS" -d2s "http://127.0.0.1:$NGINX/" > /dev/null
! want nginx-plain || wrk -t2 -c"$CONNS" -d2s "http://127.0.0.1:$NGINX_PLAIN/" > /dev/null
! want undertow-stock || wrk -t2 -c"$CONNS" -d"${WARMUP}s" "http://127.0.0.1:$STOCK/" > /dev/null
! want undertow-hello || wrk -t2 -c"$CONNS" -d"${WARMUP}s" "http://127.0.0.1:$HELLO/" > /dev/null
! want undertow-bare-proxy || wrk -t2 -c"$CONNS" -d"${WARMUP}s" "http://127.0.0.1:$UBARE/" > /dev/null
! want bare-nio-proxy || wrk -t2 -c"$CONNS" -d"${WARMUP}s" "http://127.0.0.1:$BARE/" > /dev/null
# then the settling the long warm-up leaves to do (lib.sh's settle_jit), before any round
settled=()
! want fulcrum || settled+=("http://127.0.0.1:$FULCRUM/")
! want fulcrum-b || settled+=("http://127.0.0.1:$FULCRUM_B/")
! want undertow-stock || settled+=("http://127.0.0.1:$STOCK/")
! want undertow-hello || settled+=("http://127.0.0.1:$HELLO/")
! want undertow-bare-proxy || settled+=("http://127.0.0.1:$UBARE/")
! want bare-nio-proxy || settled+=("http://127.0.0.1:$BARE/")
settle_jit "${settled[@]}"

# a process's user + system CPU so far, in clock ticks (for a Fulcrum, its CPU per request: steadier than req/s)
ticks() { [ -n "${1:-}" ] && awk '{print $14 + $15}' "/proc/$1/stat" || echo 0; }
run() { # name url -> "rps p99ms cpu-us-per-request"
  want "$1" || return 0
  local out rps p99 before n cpu
  before=$(ticks "${CPU_PID[$1]:-}")
  out=$(wrk -t"$WRK_THREADS" -c"$CONNS" -d"${SECS}s" --latency "$2")
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p99=$(p99_ms "$out")
  n=$(echo "$out" | awk '/requests in/ {print $1}')
  cpu=$(( ($(ticks "${CPU_PID[$1]:-}") - before) * 1000000 / $(getconf CLK_TCK) * 100 / n ))
  local errs; errs=$(echo "$out" | awk '/Non-2xx|Socket errors/ {print}' | tr '\n' ' ')
  echo "$1 round $3: $rps req/s, p99 $p99 ms$([ -z "${CPU_PID[$1]:-}" ] || echo ", CPU $((cpu / 100)).$((cpu % 100 / 10)) µs/request") $errs" >&2
  echo "$1 $rps $p99 $((cpu))" >> "$WORK/results"
}
for r in $(seq 1 "$ROUNDS"); do
  run direct "http://127.0.0.1:$B1/" "$r"
  run nginx "http://127.0.0.1:$NGINX/" "$r"
  run nginx-plain "http://127.0.0.1:$NGINX_PLAIN/" "$r"
  if [ $((r % 2)) = 1 ]; then
    run fulcrum "http://127.0.0.1:$FULCRUM/" "$r"
    run fulcrum-b "http://127.0.0.1:$FULCRUM_B/" "$r"
  else
    run fulcrum-b "http://127.0.0.1:$FULCRUM_B/" "$r"
    run fulcrum "http://127.0.0.1:$FULCRUM/" "$r"
  fi
  run undertow-stock "http://127.0.0.1:$STOCK/" "$r"
  run undertow-hello "http://127.0.0.1:$HELLO/" "$r"
  run undertow-bare-proxy "http://127.0.0.1:$UBARE/" "$r"
  run bare-nio-proxy "http://127.0.0.1:$BARE/" "$r"
done

python3 - "$WORK/results" "$SECS" "$ROUNDS" "$CONNS" "$WRK_THREADS" "${AB:-}" <<'PY'
import sys, statistics
rows, cpus = {}, {}
for line in open(sys.argv[1]):
    name, rps, p99, cpu = line.split()
    rows.setdefault(name, []).append((float(rps), float(p99)))
    cpus.setdefault(name, []).append(int(cpu) / 100)
med = {k: (statistics.median(r for r, _ in v), statistics.median(p for _, p in v)) for k, v in rows.items()}
print(f"wrk -t{sys.argv[5]} -c{sys.argv[4]} -d{sys.argv[2]}s, {sys.argv[3]} interleaved rounds, medians")
print(f"| target | requests/s | p99 ms | vs nginx (req/s) | vs nginx (p99) |")
print(f"|---|---|---|---|---|")
for k in ("direct", "nginx", "nginx-plain", "fulcrum", "fulcrum-b", "undertow-stock", "undertow-hello", "undertow-bare-proxy", "bare-nio-proxy"):
    if k not in med:
        continue
    r, p = med[k]
    print(f"| {k} | {r:,.0f} | {p:.2f} | {r/med['nginx'][0]:.2f}x | {p/med['nginx'][1]:.2f}x |")
# the machine drifts between rounds (nginx alone moved 54k-82k req/s in one run): each round's ratio to the nginx
# round just before it is steadier than a ratio of medians taken over the whole run
for k in ("fulcrum", "fulcrum-b"):
    if k in cpus:
        print(f"{k} CPU per request (user + system, /proc), round by round: "
              f"{' '.join(f'{x:.1f}' for x in cpus[k])} µs; median {statistics.median(cpus[k]):.1f} µs")
for k, ref in (("nginx-plain", "nginx"), ("fulcrum", "nginx"), ("fulcrum", "nginx-plain"), ("fulcrum-b", "fulcrum"),
               ("fulcrum-b", "nginx"),
               ("undertow-bare-proxy", "nginx"), ("bare-nio-proxy", "nginx")):
    ratios = [f / n for (f, _), (n, _) in zip(rows.get(k, []), rows.get(ref, []))]
    if ratios:
        print(f"{k} vs {ref}, round by round: {' '.join(f'{x:.2f}' for x in ratios)}; "
              f"median {statistics.median(ratios):.3f}x")
if sys.argv[6] and rows.get("fulcrum-b"):
    rps = [a / b for (a, _), (b, _) in zip(rows["fulcrum"], rows["fulcrum-b"])]
    p99 = [a / b for (_, a), (_, b) in zip(rows["fulcrum"], rows["fulcrum-b"])]
    cpu = statistics.median(cpus["fulcrum"]) / statistics.median(cpus["fulcrum-b"])
    print(f"A/B: this tree vs {sys.argv[6]}: requests/s {statistics.median(rps):.3f}x "
          f"(rounds {' '.join(f'{x:.2f}' for x in rps)}), p99 {statistics.median(p99):.2f}x, CPU per request {cpu:.3f}x "
          f"({statistics.median(cpus['fulcrum']):.1f} against {statistics.median(cpus['fulcrum-b']):.1f} µs)")
PY
