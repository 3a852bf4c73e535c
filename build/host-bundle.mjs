// Bundles the browser host (electron/host/cli.ts) into out/host/cli.mjs for `npm run host`, and rebuilds it only
// when one of the files it was built from changed. Running the bundle with plain Node skips tsx's per-start
// compile of every TypeScript file and most of Node's module resolution (issue 3's startup figure).
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './stale.mjs';
import { svelteServerPlugin } from './svelte-server.mjs';

/**
 * The bundle. It sits two folders below the root, as electron/host/ does, so start-host's
 * `import.meta.dirname/../..` still names the checkout.
 */
export const HOST_BUNDLE = join(ROOT, 'out', 'host', 'cli.mjs');
/** Every file the bundle was built from, with its modification time and size at build time. */
export const HOST_BUNDLE_MANIFEST = join(ROOT, 'out', 'host', 'cli.inputs.json');

const ENTRY = join(ROOT, 'electron', 'host', 'cli.ts');
const THIS_FILE = fileURLToPath(import.meta.url);

/**
 * Packages loaded from node_modules at run time rather than bundled: native addons (keytar, @serialport/bindings-cpp,
 * ssh2 and its optional cpu-features), and playwright-core, which is big and only needed when a report is printed.
 */
export const HOST_EXTERNAL_PACKAGES = ['keytar', 'ssh2', 'cpu-features', '@serialport/*', 'playwright-core'];

/**
 * Besides the bundled files: the lock (an upgraded package's files may keep their dates), this script and the
 * Svelte compile plugin it uses.
 */
const EXTRA_INPUTS = [join(ROOT, 'package-lock.json'), THIS_FILE, join(ROOT, 'build', 'svelte-server.mjs')];

function fingerprint(path) {
  try {
    const stats = statSync(path);
    return [stats.mtimeMs, stats.size];
  } catch {
    return null;
  }
}

/**
 * True when the bundle exists and every file it was built from still has the modification time and size it had
 * then (any difference counts, so a checkout that moves a file's time backwards also rebuilds).
 */
export function isHostBundleFresh(bundle = HOST_BUNDLE, manifest = HOST_BUNDLE_MANIFEST) {
  if (!existsSync(bundle)) return false;
  let inputs;
  try {
    inputs = JSON.parse(readFileSync(manifest, 'utf8')).inputs;
  } catch {
    return false;
  }
  if (typeof inputs !== 'object' || inputs === null) return false;
  const entries = Object.entries(inputs);
  if (entries.length === 0) return false;
  return entries.every(([path, recorded]) => {
    const current = fingerprint(resolve(ROOT, path));
    return current !== null && current[0] === recorded[0] && current[1] === recorded[1];
  });
}

/**
 * Keeps the import of build/stale.mjs a run-time import: it finds the checkout from its own location, which a
 * bundled copy would no longer have. The path is rewritten relative to the bundle's folder.
 */
function keepStaleModuleExternal(bundle) {
  return {
    name: 'stale-module-external',
    setup(build) {
      build.onResolve({ filter: /\/build\/stale\.mjs$/ }, (args) => {
        const path = relative(dirname(bundle), resolve(args.resolveDir, args.path)).replaceAll('\\', '/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

/**
 * Builds the bundle with esbuild (written beside, then renamed into place, so a concurrent start never reads half
 * a file) and records its inputs. When a source changes while the build runs, no manifest is written, so the
 * next start builds again. Resolves with the bundle's path, its inputs (relative to the root) and whether the
 * manifest was written.
 */
export async function buildHostBundle(bundle = HOST_BUNDLE, manifest = HOST_BUNDLE_MANIFEST) {
  const { build } = await import('esbuild');
  const startedAt = Date.now();
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: HOST_EXTERNAL_PACKAGES,
    plugins: [keepStaleModuleExternal(bundle), svelteServerPlugin],
    // Bundled CommonJS packages call require(); ESM output has none of its own.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    // NODE_OPTIONS=--enable-source-maps maps stack traces back to the TypeScript sources.
    sourcemap: 'linked',
    metafile: true,
    write: false,
    logLevel: 'error',
  });
  mkdirSync(dirname(bundle), { recursive: true });
  const suffix = `.${process.pid}.tmp`;
  for (const file of result.outputFiles) {
    writeFileSync(`${file.path}${suffix}`, file.contents);
    renameSync(`${file.path}${suffix}`, file.path);
  }
  const inputs = {};
  let changedDuringBuild = false;
  // Inputs such as `lazy-playwright:playwright-core` come from a plugin, not a file.
  const files = Object.keys(result.metafile.inputs).filter((input) => !/^[\w-]+:/.test(input));
  for (const path of [...files.map((input) => resolve(ROOT, input)), ...EXTRA_INPUTS]) {
    const current = fingerprint(path);
    if (current === null || current[0] >= startedAt) changedDuringBuild = true;
    else inputs[relative(ROOT, path)] = current;
  }
  if (!changedDuringBuild) {
    writeFileSync(`${manifest}${suffix}`, `${JSON.stringify({ inputs })}\n`);
    renameSync(`${manifest}${suffix}`, manifest);
  }
  return { path: bundle, inputs: Object.keys(inputs), recorded: !changedDuringBuild };
}

/** Returns the path of an up-to-date bundle, building it first when stale; `log` gets one line when it builds. */
export async function ensureHostBundle(log = () => {}) {
  if (isHostBundleFresh()) return HOST_BUNDLE;
  log('building the host bundle (sources changed)');
  return (await buildHostBundle()).path;
}
