#!/usr/bin/env bash
# Builds a self-contained Fulcrum application image (its own Java runtime) with jpackage, on Linux or macOS:
#   packaging/app-image.sh [--no-build] [--dest DIR]  ->  target/dist/Fulcrum/bin/Fulcrum
source "$(dirname "$0")/common.sh" "$@"

icon=packaging/icon/fulcrum.png
if [ "$(uname)" = Darwin ]; then icon=packaging/icon/fulcrum.icns; fi
rm -rf "$dest/Fulcrum" "$dest/Fulcrum.app"
jpackage --type app-image "${jpackage_common[@]}" --icon "$icon"
echo "built $dest/Fulcrum (run $dest/Fulcrum/bin/Fulcrum, or add --headless)"
