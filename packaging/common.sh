# Sourced by app-image.sh, deb.sh and dmg.sh (packaging/msi.ps1 mirrors it for Windows): what every package of
# Fulcrum shares, so each one is the same app. Options, given to the script that sources this:
#   --no-build   package the target/fulcrum.jar that is there instead of running `mvn package` first
#                (DebPackageTest runs deb.sh so, inside `mvn verify`, after the package phase built the jar)
#   --dest DIR   where the package goes (default target/dist)
set -euo pipefail

build=true
dest="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/dist"
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) build=false ;;
    --dest) dest="${2:?--dest needs a directory}"; shift ;;
    *) echo "unknown option: $1 (expected --no-build or --dest DIR)" >&2; exit 2 ;;
  esac
  shift
done
case "$dest" in /*) ;; *) dest="$PWD/$dest" ;; esac
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if $build; then
  mvn -q package -DskipTests
fi
if [ ! -f target/fulcrum.jar ]; then
  echo "target/fulcrum.jar is missing: run mvn -q package -DskipTests (or leave out --no-build)" >&2
  exit 2
fi

# the project's version from pom.xml (the first <version> at the project's level); installers want numbers only,
# so 0.1.0-SNAPSHOT is packaged as 0.1.0
version="$(sed -n 's|^  <version>\([^<]*\)</version>$|\1|p' pom.xml | head -n 1)"
version="${version%-SNAPSHOT}"
if ! [[ "$version" =~ ^[0-9]+(\.[0-9]+){0,2}$ ]]; then
  echo "pom.xml: <version> must be up to three numbers (and -SNAPSHOT) for an installer (got: $version)" >&2
  exit 2
fi

# jpackage packages every file of --input: the shaded jar (JavaFX and every library inside) and nothing else; a
# folder of its own per run, so that two builds at once (a test beside a user's build) do not share it
input="$(mktemp -d)"
trap 'rm -rf "$input"' EXIT
mkdir -p "$dest"
cp target/fulcrum.jar "$input/"

# The runtime's modules: what jdeps finds the jar's classes use, and what it cannot see because it is looked up
# by name at run time: jdk.crypto.ec (the EC keys of the local certificate authority and TLS's EC key exchange)
# and jdk.localedata (the window's Chinese and Polish formats; --include-locales keeps only those and English).
modules="$(jdeps --print-module-deps --ignore-missing-deps --multi-release 17 target/fulcrum.jar)"
modules="$modules,jdk.crypto.ec,jdk.localedata"

# options every jpackage type takes; -Xmx512m is the app's heap ceiling. -Xms32m and the free ratios keep the heap near
# what the window uses: by default G1 starts at 1/64 of the machine's memory and keeps up to 70% of its heap free
# (bench/window-memory.sh: 437-440 MB resident at rest, 464-468 MB animating; with these 412-415 and 421-429).
# -XX:+ExplicitGCInvokesConcurrent lets the window ask G1 for a marking cycle once its start has settled, and when the
# machine turns saturated or quiet (HeapSettle, which widens the free ratios meanwhile): G1 resizes the heap only at
# the end of one, and a window at rest may never start one.
jpackage_common=(
  --name Fulcrum
  --app-version "$version"
  --vendor Fulcrum
  --description "A desktop load balancer you can see"
  --input "$input" --main-jar fulcrum.jar --main-class dev.fulcrum.Main
  --java-options -Xmx512m --java-options -Xms32m
  --java-options -XX:MinHeapFreeRatio=10 --java-options -XX:MaxHeapFreeRatio=30
  --java-options -XX:+ExplicitGCInvokesConcurrent
  --add-modules "$modules"
  --jlink-options "--strip-debug --strip-native-commands --no-man-pages --no-header-files --compress=2 --include-locales=en,zh,pl"
  --dest "$dest"
)

# On Linux, glibc keeps the memory C2's arenas free after the proxy's path compiles under load (up to 16 MB while the
# window animates 1,000 req/s); trimming the native heap every 2 s gives it back (bench/window-memory.sh: animating
# 352-354 MB instead of 368-393; the proxy's A/B 0.998x and 0.969x beside an A/A of 0.997x). The package bundles the
# JDK that builds it, so the flag goes in only when that JDK has it (17.0.9 and later).
if [ "$(uname -s)" = Linux ] && java -XX:TrimNativeHeapInterval=2000 -version > /dev/null 2>&1; then
  jpackage_common+=(--java-options -XX:TrimNativeHeapInterval=2000)
fi

# the file types the installers register Fulcrum for (the desktop menu entry, Finder, Explorer)
jpackage_associations=(
  --file-associations packaging/associations/har.properties
  --file-associations packaging/associations/config.properties
)
