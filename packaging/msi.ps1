# Builds Fulcrum's Windows installer with jpackage (on Windows, JDK 17 or later and the WiX Toolset 3 on the PATH):
# the same app as packaging/deb.sh, with its own runtime, a Start menu entry and a desktop shortcut with Fulcrum's
# icon, the .har and *.fulcrum.json file types, and a choice of folder. packaging/common.sh's options, in PowerShell.
#   powershell -ExecutionPolicy Bypass -File packaging\msi.ps1 [-NoBuild] [-Dest DIR]
#     ->  target\dist\Fulcrum-VERSION.msi
param([switch]$NoBuild, [string]$Dest = "target\dist")
$ErrorActionPreference = "Stop"
$Dest = $ExecutionContext.SessionState.Path.GetUnresolvedProviderPathFromPSPath($Dest)  # relative to where it is run
Set-Location (Split-Path -Parent $PSScriptRoot)

if (-not $NoBuild) {
    mvn -q package -DskipTests
    if ($LASTEXITCODE) { exit $LASTEXITCODE }
}
if (-not (Test-Path target\fulcrum.jar)) {
    Write-Host "target\fulcrum.jar is missing: run mvn -q package -DskipTests (or leave out -NoBuild)"
    exit 2
}

# the project's version from pom.xml; installers want numbers only, so 0.1.0-SNAPSHOT is packaged as 0.1.0
$version = ([xml](Get-Content pom.xml)).project.version -replace '-SNAPSHOT$', ''
if ($version -notmatch '^\d+(\.\d+){0,2}$') {
    Write-Host "pom.xml: <version> must be up to three numbers (and -SNAPSHOT) for an installer (got: $version)"
    exit 2
}

# a folder of its own per run for jpackage's --input, holding only the shaded jar
$in = Join-Path ([IO.Path]::GetTempPath()) ("fulcrum-jpackage-" + [guid]::NewGuid())
New-Item -ItemType Directory -Force $in, $Dest | Out-Null
Copy-Item target\fulcrum.jar $in

# the runtime's modules, as packaging/common.sh explains
$modules = (jdeps --print-module-deps --ignore-missing-deps --multi-release 17 target\fulcrum.jar) + ",jdk.crypto.ec,jdk.localedata"

Remove-Item "$Dest\Fulcrum-*.msi" -ErrorAction SilentlyContinue
# --win-upgrade-uuid is Fulcrum's for good: a newer msi replaces the installed version instead of sitting beside it
jpackage --type msi --name Fulcrum --app-version $version --vendor Fulcrum --description "A desktop load balancer you can see" `
  --input $in --main-jar fulcrum.jar --main-class dev.fulcrum.Main `
  --java-options -Xmx512m --java-options -Xms32m `
  --java-options -XX:MinHeapFreeRatio=10 --java-options -XX:MaxHeapFreeRatio=30 `
  --java-options -XX:+ExplicitGCInvokesConcurrent `
  --add-modules $modules `
  --jlink-options "--strip-debug --strip-native-commands --no-man-pages --no-header-files --compress=2 --include-locales=en,zh,pl" `
  --dest $Dest `
  --file-associations packaging\associations\har.properties `
  --file-associations packaging\associations\config.properties `
  --icon packaging\icon\fulcrum.ico `
  --win-menu --win-menu-group Fulcrum --win-shortcut --win-dir-chooser `
  --win-upgrade-uuid d929b6e2-1f8d-4737-8c53-e0786ea3cf20
$code = $LASTEXITCODE
Remove-Item -Recurse -Force $in
if ($code) { exit $code }
Write-Host "built $((Get-ChildItem "$Dest\Fulcrum-*.msi").FullName)"
