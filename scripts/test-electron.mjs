#!/usr/bin/env node
// `npm run test:electron`: the smoke test of the real Electron app (test/electron/), which `npm test` leaves out
// because it needs the Electron runtime. Exit status: 0 passed, 1 failed, 2 not run because this machine lacks
// what it needs (the one line printed says what). On Linux it runs inside a private D-Bus session with an
// unlocked gnome-keyring when those exist, as `npm test` does; it needs a display there (xvfb-run -a).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildIfStale, ROOT } from '../build/stale.mjs';
import { findElectronBinary } from './electron-binary.mjs';

/** The exit status for "not run: a prerequisite is missing" (distinct from a failure, 1). */
const NOT_RUN_STATUS = 2;

function notRun(reason) {
  console.error(`test:electron not run: ${reason}`);
  process.exit(NOT_RUN_STATUS);
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

if (!findElectronBinary()) {
  notRun(
    'Electron runtime not installed (`npx install-electron` fetches it into node_modules/electron/dist)',
  );
}
if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
  notRun('no display for the Electron window (DISPLAY is not set; run it under `xvfb-run -a`)');
}

try {
  buildIfStale(['renderer', 'electron'], (line) => console.error(`[test:electron] ${line}`));
} catch (error) {
  console.error(`[test:electron] ${error.message}`);
  process.exit(1);
}

const vitest = [
  join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
  'run',
  '--config',
  join(ROOT, 'test', 'electron', 'vitest.config.ts'),
  ...process.argv.slice(2),
];
// keytar needs a Secret Service on Linux; elsewhere the app uses the OS keychain as it is.
const [command, args] =
  process.platform === 'linux' && hasCommand('dbus-run-session') && hasCommand('gnome-keyring-daemon')
    ? [
        'dbus-run-session',
        ['--', 'bash', join(ROOT, 'scripts', 'with-keyring.sh'), process.execPath, ...vitest],
      ]
    : [process.execPath, vitest];
const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
process.exit(result.status ?? 1);
