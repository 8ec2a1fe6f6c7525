// Installs the validator's npm packages exactly as package-lock.json pins them (npm ci), unless node_modules
// already holds them. The build runs this in its generate-test-resources phase (pom.xml), so a fresh clone's
// `mvn verify` has the validator RequestsApiTest runs.
//
// "Already holds them": npm records what it installed in node_modules/.package-lock.json, the lock file's package
// entries less the project's own (""); when those match and each package's directory is there, npm ci would
// change nothing, and is skipped (it would delete and reinstall everything, and need the registry).
'use strict';
const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

function packages(file) {
  return JSON.parse(fs.readFileSync(path.join(__dirname, file), 'utf8')).packages || {};
}

function upToDate() {
  try {
    const locked = packages('package-lock.json');
    delete locked['']; // the project itself: npm does not list it as installed
    const installed = packages(path.join('node_modules', '.package-lock.json'));
    const same = JSON.stringify(locked) === JSON.stringify(installed);
    return same && Object.keys(locked).every((p) => fs.existsSync(path.join(__dirname, p, 'package.json')));
  } catch (e) {
    return false; // nothing installed yet, or a record npm did not finish writing
  }
}

if (!upToDate()) {
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--silent'],
    { cwd: __dirname, stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.error) {
    console.error('src/test/har: cannot run npm (' + r.error.message + '); install nodejs and npm (README, "Test it")');
    process.exit(1);
  }
  process.exit(r.status === null ? 1 : r.status);
}
