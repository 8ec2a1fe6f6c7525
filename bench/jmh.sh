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
