#!/usr/bin/env node
// Makes a fresh Debian machine ready for `npm start` and `npm test`: installs the Debian packages the project
// needs (when run as root) and runs `npm ci` when node_modules is absent or older than package-lock.json.
// Plain Node with no dependencies: it runs before node_modules exists. Quick when everything is present: with
// both stamps fresh it reads two small files and stats one, and starts no process (it sits on `npm run host`'s
// path to the first page). `scripts/host.mjs` imports `ensureMachine`; run directly, this file calls it.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Debian packages the app and its tests use (README). keytar compiles against libsecret-1-dev. */
export const DEBIAN_PACKAGES = [
  'libsecret-1-dev',
  'gnome-keyring',
  'dbus',
  'socat',
  'chromium',
  'openssh-server',
  'openssh-client',
  'mosquitto',
  'xvfb',
  'poppler-utils',
];

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(ROOT, 'node_modules', '.fieldkit-lock.sha256');
/** dpkg's database: any install or removal rewrites it, so an unchanged one means the packages are as checked. */
const DPKG_STATUS = '/var/lib/dpkg/status';
/** The dpkg database's modification time when every package in DEBIAN_PACKAGES was last found installed. */
const DEBIAN_STAMP = join(ROOT, 'node_modules', '.fieldkit-debian.stamp');

let quiet = false;

function say(line) {
  if (!quiet) console.log(`[setup] ${line}`);
}

function readStamp(path) {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return null;
  }
}

function dpkgStatusTime() {
  try {
    return String(statSync(DPKG_STATUS).mtimeMs);
  } catch {
    return null;
  }
}

function missingDebianPackages() {
  const result = spawnSync(
    'dpkg-query',
    ['-W', '-f', '${Package} ${db:Status-Status}\\n', ...DEBIAN_PACKAGES],
    {
      encoding: 'utf8',
    },
  );
  if (result.error) return []; // not a Debian system: nothing we can install
  const installed = new Set(
    result.stdout
      .split('\n')
      .filter((line) => line.endsWith(' installed'))
      .map((line) => line.split(' ')[0]),
  );
  return DEBIAN_PACKAGES.filter((name) => !installed.has(name));
}

function ensureDebianPackages() {
  const checkedAt = dpkgStatusTime();
  if (checkedAt !== null && readStamp(DEBIAN_STAMP) === checkedAt) return;
  const missing = missingDebianPackages();
  if (missing.length === 0) {
    // The stamp lives in node_modules: with none yet, the next run checks again (after npm ci).
    if (checkedAt !== null && existsSync(join(ROOT, 'node_modules')))
      writeFileSync(DEBIAN_STAMP, `${checkedAt}\n`);
    return;
  }
  if (process.getuid?.() !== 0) {
    console.warn(
      `[setup] missing Debian packages: ${missing.join(' ')} — install them with: sudo apt-get install ${missing.join(' ')}`,
    );
    return;
  }
  say(`installing Debian packages: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    stdio: 'inherit',
    env,
  });
}

function lockHash() {
  return createHash('sha256')
    .update(readFileSync(join(ROOT, 'package-lock.json')))
    .digest('hex');
}

function ensureNodeModules() {
  const wanted = lockHash();
  if (readStamp(STAMP) === wanted) return;
  say(
    existsSync(join(ROOT, 'node_modules'))
      ? 'package-lock.json changed: running npm ci'
      : 'installing npm packages (npm ci)',
  );
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: ROOT, stdio: 'inherit' });
  writeFileSync(STAMP, `${wanted}\n`);
}

/**
 * Installs what is missing (Debian packages when root, npm packages when package-lock.json changed) and returns
 * once the checkout can run; throws when an install fails. `quiet` keeps the `[setup]` progress lines out.
 */
export function ensureMachine(options = {}) {
  quiet = options.quiet ?? false;
  ensureDebianPackages();
  ensureNodeModules();
}

// Run as a script (not imported): compared through realpath, as Node resolves symlinks for import.meta.url only.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureMachine({ quiet: process.argv.includes('--quiet') });
}
