#!/usr/bin/env bash
# Builds Fulcrum's Debian package with jpackage (JDK 17 or later, with fakeroot and dpkg-deb):
#   packaging/deb.sh [--no-build] [--dest DIR]  ->  target/dist/fulcrum_VERSION_amd64.deb
#   sudo apt install ./target/dist/fulcrum_VERSION_amd64.deb   then   fulcrum (or fulcrum FILE.har)
# It installs /opt/fulcrum (the app and its own runtime), the menu entry with Fulcrum's icon, the .har and
# *.fulcrum.json file types, and the fulcrum command (/usr/bin/fulcrum, a link made by packaging/linux/postinst).
# packaging/dmg.sh and packaging/msi.ps1 give the same app for macOS and Windows.
source "$(dirname "$0")/common.sh" "$@"

rm -f "$dest"/fulcrum_*_amd64.deb
jpackage --type deb "${jpackage_common[@]}" "${jpackage_associations[@]}" \
  --icon packaging/icon/fulcrum.png \
  --resource-dir packaging/linux \
  --linux-package-name fulcrum \
  --linux-shortcut --linux-menu-group "Development;Network;" \
  --linux-app-category net
# jpackage names it NAME_VERSION-RELEASE_ARCH.deb; the package is fulcrum_VERSION_amd64.deb (dpkg reads the version
# from the package, not its file name)
mv "$dest"/fulcrum_"$version"-*_amd64.deb "$dest/fulcrum_${version}_amd64.deb"
echo "built $dest/fulcrum_${version}_amd64.deb"
