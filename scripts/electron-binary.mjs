// Where the Electron runtime is, for `npm start` and `npm run test:electron`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../build/stale.mjs';

/**
 * The Electron binary, or null when the runtime was never downloaded (the `electron` package installs without it;
 * `npx install-electron` fetches it). Reads the package's `path.txt` as its own entry point would, without loading
 * that entry point: it tries to download the runtime, which cannot work offline.
 */
export function findElectronBinary(environment = process.env) {
  const packageDir = join(ROOT, 'node_modules', 'electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return null;
  const relativePath = readFileSync(pathFile, 'utf8').trim();
  const distDir = environment.ELECTRON_OVERRIDE_DIST_PATH ?? join(packageDir, 'dist');
  const binary = join(distDir, relativePath);
  return existsSync(binary) ? binary : null;
}
