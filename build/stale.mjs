// Decides whether a build output is older than its sources, and rebuilds what is stale. Plain Node (no
// dependencies) so that scripts/start.mjs and the browser host CLI share it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

const MAX_FILES = 20_000;

/** The newest modification time (ms) among the files under the given paths (folders walked, bounded). */
export function newestModification(paths) {
  let newest = 0;
  let visited = 0;
  const stack = [...paths];
  while (stack.length > 0 && visited < MAX_FILES) {
    const path = stack.pop();
    if (!existsSync(path)) continue;
    const stats = statSync(path);
    visited += 1;
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) {
        if (entry !== 'node_modules' && !entry.startsWith('.')) stack.push(join(path, entry));
      }
    } else if (stats.mtimeMs > newest) {
      newest = stats.mtimeMs;
    }
  }
  return newest;
}

/** True when `output` is missing or older than any file under `inputs`. */
export function isStale(output, inputs) {
  if (!existsSync(output)) return true;
  return statSync(output).mtimeMs < newestModification(inputs);
}

/** The build targets: what they produce, what they read, how to run them. */
export const TARGETS = {
  renderer: {
    output: join(ROOT, 'out', 'renderer', 'index.html'),
    inputs: [join(ROOT, 'renderer'), join(ROOT, 'electron', 'shared')],
    available: () => existsSync(join(ROOT, 'renderer', 'vite.config.ts')),
    command: [join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--config', 'renderer/vite.config.ts']],
  },
  electron: {
    output: join(ROOT, 'out', 'main', 'index.js'),
    inputs: [
      join(ROOT, 'electron'),
      join(ROOT, 'build', 'bundle-electron.mjs'),
      join(ROOT, 'build', 'svelte-server.mjs'),
    ],
    available: () => true,
    command: [process.execPath, [join(ROOT, 'build', 'bundle-electron.mjs')]],
  },
};

/**
 * Builds each named target whose output is stale. Returns the names built; throws when a build fails.
 * `log` receives one line per build.
 */
export function buildIfStale(names, log = () => {}) {
  const built = [];
  for (const name of names) {
    const target = TARGETS[name];
    if (!target.available() || !isStale(target.output, target.inputs)) continue;
    log(`building ${name} (out of date)`);
    const [command, args] = target.command;
    const result = spawnSync(command, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (result.status !== 0) throw new Error(`building ${name} failed (exit ${result.status})`);
    built.push(name);
  }
  return built;
}
