#!/usr/bin/env bash
# Builds a self-contained Fulcrum application image (its own Java runtime) with jpackage:
#   packaging/app-image.sh        ->  target/dist/Fulcrum/bin/Fulcrum
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -q package -DskipTests
rm -rf target/jpackage-input target/dist
mkdir -p target/jpackage-input
cp target/fulcrum.jar target/jpackage-input/
jpackage --type app-image --name Fulcrum --app-version 0.1.0 \
  --input target/jpackage-input --main-jar fulcrum.jar --main-class dev.fulcrum.Main \
  --java-options "-Xmx512m" --dest target/dist
echo "built target/dist/Fulcrum (run target/dist/Fulcrum/bin/Fulcrum, or add --headless)"
