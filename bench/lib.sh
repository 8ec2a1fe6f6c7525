# Shared by the bench scripts (sourced, not run): a work directory cleaned up on exit, the nginx
# backends and proxy every comparison uses, and headless Fulcrum started and waited for.
# Everything listens on 127.0.0.1 only.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
JAR="${JAR:-$ROOT/target/fulcrum.jar}"
WORK=$(mktemp -d /tmp/fulcrum-bench.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# needs TOOL... : exits with the apt-get line when one is missing; always needs the jar
needs() {
  [ -f "$JAR" ] || { echo "no $JAR: run mvn -q package -DskipTests" >&2; exit 1; }
  for t in "$@"; do
    command -v "$t" > /dev/null || { echo "needs $t (apt-get install $*)" >&2; exit 1; }
  done
}

# start_backends PORT... : one nginx process (worker_processes 1) answering `return 200` on each port,
# keep-alive connections good for 100000 requests
start_backends() {
  mkdir -p "$WORK/backends"
  {
    echo "worker_processes 1; pid $WORK/backends/nginx.pid; error_log $WORK/backends/error.log warn;"
    echo "events { worker_connections 4096; }"
    echo "http { access_log off; keepalive_requests 100000;"
    local i=1
    for port in "$@"; do
      echo "  server { listen 127.0.0.1:$port; location / { return 200 \"hello from b$i\\n\"; } }"
      i=$((i + 1))
    done
    echo "}"
  } > "$WORK/backends/nginx.conf"
  nginx -p "$WORK/backends" -c "$WORK/backends/nginx.conf" -g 'daemon off;' & pids+=($!)
}

# start_nginx_proxy PORT BACKEND_PORT... : nginx as a reverse proxy, upstream keepalive on (the comparison);
# keepalive is the idle connections each worker keeps, so it must exceed a worker's share of wrk's connections,
# or nginx closes and reopens backend connections at high connection counts (64 does at -c200).
# NGINX_FORWARDED=1 (the default) has nginx do the job docs/REFERENCE.md §3 asks of Fulcrum: X-Forwarded-For (appended),
# X-Forwarded-Proto and X-Forwarded-Host on every request, as nginx reverse-proxy configurations set them;
# NGINX_FORWARDED=0 is nginx's bare proxy_pass, which adds none (and costs less: fewer bytes for it and its backend).
# NGINX_DIR names its directory under $WORK (default proxy), for a second nginx beside the first; NGINX_HTTP,
# NGINX_SERVER and NGINX_LOCATION are more lines for its http, server and location / blocks (a mirror, say)
start_nginx_proxy() {
  local port=$1; shift
  local dir="$WORK/${NGINX_DIR:-proxy}"
  mkdir -p "$dir"
  local servers=""
  for b in "$@"; do servers="$servers server 127.0.0.1:$b;"; done
  local forwarded=""
  if [ "${NGINX_FORWARDED:-1}" = 1 ]; then
    forwarded='proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for; proxy_set_header X-Forwarded-Proto $scheme; proxy_set_header X-Forwarded-Host $http_host;'
  fi
  cat > "$dir/nginx.conf" <<CONF
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  upstream pool { $servers keepalive 512; }
  ${NGINX_HTTP:-}
  server {
    listen 127.0.0.1:$port;
    location / { ${NGINX_LOCATION:-} proxy_pass http://pool; proxy_http_version 1.1; proxy_set_header Connection ""; $forwarded }
    ${NGINX_SERVER:-}
  }
}
CONF
  nginx -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' & pids+=($!)
}

# two_backend_config FILE PORT ADMIN B1 B2 [ACCESS_LOG=/dev/null] [PROXY_EXTRA] [CONFIG_EXTRA]: round robin over two
# backends; IO_THREADS=N in the environment sets proxy.ioThreads (default 0: one per core, at least 2); PROXY_EXTRA is
# more fields of the proxy object, e.g. ', "recentRequests": 0'; CONFIG_EXTRA more top-level fields (pools, routes).
# MORE_BACKENDS="PORT..." adds backends b3, b4... after the two.
two_backend_config() {
  local backends='{ "id": "b1", "url": "http://127.0.0.1:'$4'" }, { "id": "b2", "url": "http://127.0.0.1:'$5'" }'
  local i=3
  for port in ${MORE_BACKENDS:-}; do
    backends="$backends, { \"id\": \"b$i\", \"url\": \"http://127.0.0.1:$port\" }"
    i=$((i + 1))
  done
  cat > "$1" <<CONF
{ "proxy": { "port": $2, "accessLog": "${6:-/dev/null}", "ioThreads": ${IO_THREADS:-0} ${7:-} }, "admin": { "port": $3 },
  "strategy": { "type": "round-robin" },
  "backends": [ $backends ] ${8:-} }
CONF
}

# start_fulcrum CONFIG [JAR] [NAME] : headless Fulcrum with a 256 MiB heap, waited for until its ready line; sets
# FULCRUM_PID. A second one beside the first takes its own JAR and NAME (for its ready and log files). CONFIG may be
# an etcd://... address; FULCRUM_ARGS adds to the command line (e.g. --proxy-port 19001 --instance-id a).
start_fulcrum() {
  local jar=${2:-$JAR} name=${3:-fulcrum}
  java -Xms256m -Xmx256m ${FULCRUM_JAVA_OPTS:-} -jar "$jar" --headless --config "$1" ${FULCRUM_ARGS:-} > "$WORK/$name.ready" \
    2> "$WORK/$name.err" &
  FULCRUM_PID=$!
  pids+=($FULCRUM_PID)
  for _ in $(seq 1 150); do grep -q "fulcrum ready" "$WORK/$name.ready" 2>/dev/null && break; sleep 0.2; done
  grep -q "fulcrum ready" "$WORK/$name.ready" || { echo "$name did not start:"; cat "$WORK/$name.err"; exit 1; }
}

# start_undertow_hello PORT : bench/UndertowHello.java (Undertow answering every request itself, no backend), waited
# for until its ready line; sets HELLO_PID
start_undertow_hello() {
  java -Xms256m -Xmx256m -cp "$JAR" "$ROOT/bench/UndertowHello.java" "$1" > "$WORK/hello" 2>&1 &
  HELLO_PID=$!
  pids+=($HELLO_PID)
  for _ in $(seq 1 100); do grep -q "hello ready" "$WORK/hello" 2>/dev/null && break; sleep 0.2; done
  grep -q "hello ready" "$WORK/hello" || { echo "Undertow hello server did not start:"; cat "$WORK/hello"; exit 1; }
}

# settle_jit URL... : after a Java server's warm-up under one long wrk run, three 1 s runs on each URL, then 5 s of
# rest. The requests wrk cuts off when it stops take branches C2 compiled away during the warm-up, and the
# deoptimization and recompiling that follow (a thousand compilations over a few seconds, -XX:+PrintCompilation)
# would otherwise fall in the first measured run, the server's own or the next one's.
settle_jit() {
  for url in "$@"; do
    for _ in 1 2 3; do wrk -t2 -c"${CONNS:-50}" -d1s "$url" > /dev/null; done
  done
  sleep 5
}

# p99_ms "wrk --latency output" : the 99th percentile in milliseconds
p99_ms() {
  echo "$1" | awk '$1=="99%" {v=$2; if (v ~ /us$/) {sub("us","",v); v=v/1000} else if (v ~ /ms$/) {sub("ms","",v)} else if (v ~ /s$/) {sub("s","",v); v=v*1000}; print v}'
}
