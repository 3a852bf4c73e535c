#!/usr/bin/env node
// `npm start`: prepares the machine (scripts/ensure.mjs), then runs the app on the built-in demo server.
// Until the desktop shell lands this is the simulator alone (README, "Quick start").
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const ensure = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure.mjs')], { stdio: 'inherit' });
if (ensure.status !== 0) process.exit(ensure.status ?? 1);

const result = spawnSync(
  join(ROOT, 'node_modules', '.bin', 'tsx'),
  [join(ROOT, 'simulator', 'cli.ts'), ...process.argv.slice(2)],
  {
    cwd: ROOT,
    stdio: 'inherit',
  },
);
process.exit(result.status ?? 1);
