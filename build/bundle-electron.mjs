#!/usr/bin/env node
// Bundles the Electron main process (ESM, out/main/index.js) and the sandboxed preload (CommonJS,
// out/preload/index.cjs: a sandboxed preload can only `require('electron')`, so everything else is inlined).
import { build } from 'esbuild';
import { join } from 'node:path';
import { ROOT } from './stale.mjs';
import { svelteServerPlugin } from './svelte-server.mjs';

// `--outdir DIR` writes the bundles elsewhere (tests); the default is out/ in the checkout.
const outdirIndex = process.argv.indexOf('--outdir');
const OUT = outdirIndex > 0 ? process.argv[outdirIndex + 1] : join(ROOT, 'out');

const common = { bundle: true, platform: 'node', target: 'node22', sourcemap: true, logLevel: 'warning' };

await build({
  ...common,
  entryPoints: [join(ROOT, 'electron', 'main', 'index.ts')],
  outfile: join(OUT, 'main', 'index.js'),
  format: 'esm',
  // Dependencies stay in node_modules (native keytar/serialport must be unpacked from asar, not inlined). The
  // report's Svelte components and Svelte's server runtime are compiled in (svelte is no runtime dependency).
  packages: 'external',
  plugins: [svelteServerPlugin],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});

await build({
  ...common,
  entryPoints: [join(ROOT, 'electron', 'preload', 'index.ts')],
  outfile: join(OUT, 'preload', 'index.cjs'),
  format: 'cjs',
  external: ['electron'],
});
