#!/usr/bin/env node
// `npm run host -- [flags]`: the browser host in one Node process. Makes the machine ready (scripts/ensure.mjs,
// which starts no process when its stamps are fresh), rebuilds out/host/cli.mjs when a file it was built from
// changed (build/host-bundle.mjs), then runs it with these flags. Plain Node: tsx would compile every
// TypeScript file of the host again on each start, which cost about a second before the first page.
import { pathToFileURL } from 'node:url';
import { ensureMachine } from './ensure.mjs';

try {
  ensureMachine({ quiet: true });
} catch (error) {
  process.stderr.write(`[host] could not prepare the machine: ${error.message}\n`);
  process.exit(1);
}
// Imported only now: on a fresh checkout esbuild arrives with the npm ci above.
const { ensureHostBundle } = await import('../build/host-bundle.mjs');
let bundle;
try {
  bundle = await ensureHostBundle((line) => process.stderr.write(`[host] ${line}\n`));
} catch (error) {
  process.stderr.write(`[host] could not build the host: ${error.message}\n`);
  process.exit(1);
}
// The bundle reads process.argv itself, exactly as `tsx electron/host/cli.ts` did.
await import(pathToFileURL(bundle).href);
