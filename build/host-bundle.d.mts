/** The bundle `npm run host` runs (out/host/cli.mjs). */
export const HOST_BUNDLE: string;
/** Every file the bundle was built from, with its modification time and size at build time. */
export const HOST_BUNDLE_MANIFEST: string;
/** Packages loaded from node_modules at run time rather than bundled. */
export const HOST_EXTERNAL_PACKAGES: readonly string[];
/** True when the bundle exists and every file it was built from still has its recorded time and size. */
export function isHostBundleFresh(bundle?: string, manifest?: string): boolean;
/**
 * Builds the bundle with esbuild and records its inputs (no manifest when a source changed during the build);
 * resolves with the bundle's path, its inputs relative to the root and whether the manifest was written.
 */
export function buildHostBundle(
  bundle?: string,
  manifest?: string,
): Promise<{ path: string; inputs: string[]; recorded: boolean }>;
/** Resolves with the path of an up-to-date bundle, building it first when stale. */
export function ensureHostBundle(log?: (line: string) => void): Promise<string>;
