#!/usr/bin/env node
// `npm test`: prepares the machine (scripts/ensure.mjs), then runs every test inside a private D-Bus session
// with an unlocked gnome-keyring, so that keytar talks to a real Secret Service. Extra arguments go to vitest.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ensure = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure.mjs')], { stdio: 'inherit' });
if (ensure.status !== 0) process.exit(ensure.status ?? 1);

const vitest = join(ROOT, 'node_modules', '.bin', 'vitest');
const result = spawnSync(
  'dbus-run-session',
  ['--', 'bash', join(ROOT, 'scripts', 'with-keyring.sh'), vitest, 'run', ...process.argv.slice(2)],
  { cwd: ROOT, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
