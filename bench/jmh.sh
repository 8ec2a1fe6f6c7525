#!/usr/bin/env bash
# Runs the engine's JMH benchmarks (src/test/java/dev/fulcrum/bench) and writes CSV results to target/jmh/.
#
#   bench/jmh.sh                 every benchmark with the bounded defaults below
#   bench/jmh.sh -p backends=10  extra JMH options are appended to each run
#
# Defaults keep a full run to about ten minutes: one fork, 2 x 1 s warm-up, 3 x 1 s measurement, with the GC
# profiler for allocation per operation. Pick benchmarks run with 1 and with 2 threads.
set -euo pipefail
cd "$(dirname "$0")/.."

mvn -q -B test-compile
mvn -q -B dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/jmh-classpath.txt
CP="target/test-classes:target/classes:$(cat target/jmh-classpath.txt)"
mkdir -p target/jmh

COMMON=(-f 1 -wi 2 -i 3 -w 1s -r 1s -prof gc)
for threads in 1 2; do
  java -cp "$CP" org.openjdk.jmh.Main 'StrategyPickBenchmark' "${COMMON[@]}" -t "$threads" \
    -rf csv -rff "target/jmh/pick-t$threads.csv" "$@"
done
java -cp "$CP" org.openjdk.jmh.Main 'KeySpaceBuildBenchmark' "${COMMON[@]}" -t 1 \
  -rf csv -rff target/jmh/build.csv "$@"

# A markdown summary (ns per pick, bytes allocated per pick) for BENCHMARKS.md, if python3 is at hand.
if command -v python3 >/dev/null; then
  python3 - <<'PY' > target/jmh/results.md
import csv

def rows(path):
    out = {}
    for r in csv.DictReader(open(path)):
        metric = r["Benchmark"].split(":")[-1] if ":" in r["Benchmark"] else "score"
        key = (r["Benchmark"].split(":")[0].rsplit(".", 1)[-1], r.get("Param: type", ""), r["Param: backends"])
        out.setdefault(key, {})[metric] = (float(r["Score"]), r["Score Error (99.9%)"])
    return out

def err(e):
    return "" if e in ("", "NaN") else " ± %.0f" % float(e)

t1, t2 = rows("target/jmh/pick-t1.csv"), rows("target/jmh/pick-t2.csv")
print("| strategy | backends | 1 thread ns/pick | 2 threads ns/pick | B/pick (1 t) |")
print("|---|---:|---:|---:|---:|")
for key in t1:
    s1, e1 = t1[key]["score"]
    s2, e2 = t2.get(key, {}).get("score", (float("nan"), ""))
    alloc = t1[key].get("gc.alloc.rate.norm", (float("nan"), ""))[0]
    print("| %s | %s | %.1f%s | %.1f%s | %.3f |" % (key[1], key[2], s1, err(e1), s2, err(e2), alloc))
print()
print("| build | backends | ms/build | MB allocated/build |")
print("|---|---:|---:|---:|")
for key, m in rows("target/jmh/build.csv").items():
    s, e = m["score"]
    alloc = m.get("gc.alloc.rate.norm", (float("nan"), ""))[0]
    print("| %s | %s | %.2f%s | %.2f |" % (key[0], key[2], s / 1000, "" if e in ("", "NaN") else " ± %.2f" % (float(e) / 1000), alloc / 1e6))
PY
  echo "summary: target/jmh/results.md"
fi
