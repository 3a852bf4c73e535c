/** The repository root. */
export const ROOT: string;
/** The newest modification time (ms) among the files under the given paths. */
export function newestModification(paths: readonly string[]): number;
/** True when `output` is missing or older than any file under `inputs`. */
export function isStale(output: string, inputs: readonly string[]): boolean;
/** The build targets. */
export const TARGETS: Record<'renderer' | 'electron', { output: string; inputs: string[] }>;
/** Builds each named target whose output is stale; returns the names built. */
export function buildIfStale(
  names: readonly ('renderer' | 'electron')[],
  log?: (line: string) => void,
): string[];
