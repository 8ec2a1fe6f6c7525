#!/usr/bin/env bash
# Builds Fulcrum's macOS disk image with jpackage (on macOS, JDK 17 or later): the same app as packaging/deb.sh,
# with its own runtime, Fulcrum's icon and the .har and *.fulcrum.json file types.
#   packaging/dmg.sh [--no-build] [--dest DIR]  ->  target/dist/Fulcrum-VERSION.dmg  (drag Fulcrum to Applications)
source "$(dirname "$0")/common.sh" "$@"

rm -f "$dest"/Fulcrum-*.dmg
jpackage --type dmg "${jpackage_common[@]}" "${jpackage_associations[@]}" \
  --icon packaging/icon/fulcrum.icns \
  --mac-package-identifier dev.fulcrum \
  --mac-package-name Fulcrum \
  --mac-app-category public.app-category.developer-tools
echo "built $(ls "$dest"/Fulcrum-*.dmg)"
