// Node module hooks (registered by build/svelte-register.mjs): a `.svelte` file loads as its server build.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compileForServer } from './svelte-server.mjs';

/** Loads `.svelte` URLs compiled for the server; everything else as before. */
export async function load(url, context, nextLoad) {
  if (!url.endsWith('.svelte')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  return {
    format: 'module',
    source: compileForServer(await readFile(path, 'utf8'), path),
    shortCircuit: true,
  };
}
