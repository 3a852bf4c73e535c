#!/usr/bin/env node
// `npm start [-- host flags]`: prepares the machine (scripts/ensure.mjs), builds what is stale (renderer,
// Electron main/preload bundles), then launches Electron. Where the Electron runtime is missing it says so in
// one line and runs the browser host on the demo server instead, printing `Field Kit UI: <url>` (and opening
// a browser when there is a display, through a private handoff page so that the token is on no command line:
// scripts/handoff.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildIfStale, ROOT } from '../build/stale.mjs';
import { findElectronBinary } from './electron-binary.mjs';
import { openThroughHandoffPage } from './handoff.mjs';

const ensure = spawnSync(process.execPath, [join(ROOT, 'scripts', 'ensure.mjs'), '--quiet'], {
  stdio: 'inherit',
});
if (ensure.status !== 0) process.exit(ensure.status ?? 1);

function forwardSignals(child) {
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

function buildOrExit(targets) {
  try {
    buildIfStale(targets, (line) => console.error(`[start] ${line}`));
  } catch (error) {
    console.error(`[start] ${error.message}`);
    process.exit(1);
  }
}

const electronBinary = findElectronBinary();
// The main/preload bundles matter only when Electron can run them.
buildOrExit(electronBinary ? ['renderer', 'electron'] : ['renderer']);
if (electronBinary) {
  forwardSignals(spawn(electronBinary, [ROOT], { cwd: ROOT, stdio: 'inherit' }));
} else {
  console.log(
    'Electron runtime not found (node_modules/electron/dist is missing): running the browser host on the demo server instead.',
  );
  // The same launcher as `npm run host` (prebuilt host bundle, rebuilt when its sources changed).
  const host = spawn(
    process.execPath,
    [join(ROOT, 'scripts', 'host.mjs'), '--demo', '--no-build', ...process.argv.slice(2)],
    { cwd: ROOT, stdio: ['inherit', 'pipe', 'inherit'] },
  );
  let handoff = null;
  host.on('exit', () => handoff?.remove());
  forwardSignals(host);
  createInterface({ input: host.stdout }).on('line', (line) => {
    console.log(line);
    const url = line.startsWith('Field Kit UI: ') ? line.slice('Field Kit UI: '.length) : null;
    if (url && process.env.DISPLAY) {
      const onError = () => console.error('[start] could not open a browser: open the URL above yourself.');
      openThroughHandoffPage(url, { onError }).then((opened) => (handoff = opened), onError);
    }
  });
}
