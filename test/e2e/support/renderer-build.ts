import { rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { isStale as isStaleBuild, TARGETS } from '../../../build/stale.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
/** Where `npm run build` puts the renderer, and where the hosts serve it from. */
export const RENDERER_OUT_DIR = join(ROOT, 'out', 'renderer');
const RENDERER_DIR = join(ROOT, 'renderer');

/** The app's own rule (build/stale.mjs): the renderer and the shared code it bundles, catalogue included. */
function isStale(): boolean {
  return isStaleBuild(TARGETS.renderer.output, TARGETS.renderer.inputs);
}

/**
 * Builds the renderer into out/renderer when any file under renderer/ or electron/shared/ is newer than the last
 * build. Builds into a private folder first and renames it into place, so test files running in parallel never
 * see half a build.
 */
export async function ensureRendererBuilt(): Promise<string> {
  if (!isStale()) return RENDERER_OUT_DIR;
  const staging = `${RENDERER_OUT_DIR}.build-${process.pid}`;
  await build({
    configFile: join(RENDERER_DIR, 'vite.config.ts'),
    logLevel: 'error',
    build: { outDir: staging, emptyOutDir: true },
  });
  if (!isStale()) {
    // Another test file finished an up-to-date build while this one was building.
    await rm(staging, { recursive: true, force: true });
    return RENDERER_OUT_DIR;
  }
  await rm(RENDERER_OUT_DIR, { recursive: true, force: true });
  try {
    await rename(staging, RENDERER_OUT_DIR);
  } catch {
    // Another test file renamed its identical build into place first.
    await rm(staging, { recursive: true, force: true });
  }
  return RENDERER_OUT_DIR;
}
