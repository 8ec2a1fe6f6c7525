#!/usr/bin/env bash
# The long soak, not run by CI: SoakTest for ten minutes (or SOAK_SECONDS) under continuous
# load while backends join, leave, change weight and flap. Prints the figures line it measured:
# GETs, failures, actions, in-flight left, heap after GC before/after.
#   bench/soak.sh            # 600 s each for the plain soak and the flapping soak
#   SOAK_SECONDS=120 SOAK_SEED=42 bench/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${SOAK_SECONDS:-600}"
seed_arg=()
if [[ -n "${SOAK_SEED:-}" ]]; then
  seed_arg=("-Dsoak.seed=${SOAK_SEED}")
fi
rm -f target/reliability/figures.md
mvn -q -B test -Plong -Dtest='SoakTest' -Dsoak.seconds="${seconds}" "${seed_arg[@]}" \
    -Dsurefire.failIfNoSpecifiedTests=false || status=$?
cat target/reliability/figures.md
exit "${status:-0}"
