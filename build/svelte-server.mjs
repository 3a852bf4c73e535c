// Compiles the site report's Svelte components (electron/shared/report/document/) for the server, so the main
// process and the browser host render them with `svelte/server` (ADR 0011). One compile, three users: the
// esbuild plugin below (out/main and out/host bundles), the Node loader hook in build/svelte-register.mjs (tsx:
// `npm run bench`), and vitest.config.ts (the same options through @sveltejs/vite-plugin-svelte).
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { compile } from 'svelte/compiler';

/** Compiler options for the main side: server output, each component's style in the rendered head. */
export const SERVER_COMPILE_OPTIONS = { generate: 'server', css: 'injected' };

/** A component's source compiled to an ES module for the server. */
export function compileForServer(source, filename) {
  return compile(source, { ...SERVER_COMPILE_OPTIONS, filename }).js.code;
}

/**
 * esbuild plugin: `.svelte` files compiled for the server, and Svelte's runtime (`svelte`, `svelte/server`,
 * `svelte/internal/…`) bundled from its server entry points even where packages stay external (out/main), since
 * the packaged app ships no devDependency.
 */
export const svelteServerPlugin = {
  name: 'svelte-server',
  setup(build) {
    // Svelte itself, and the packages its files import (esm-env, clsx, devalue), from their Node entry points.
    const isSvelteFile = (path) =>
      path.endsWith('.svelte') || /[\\/]node_modules[\\/](svelte|esm-env|clsx|devalue)[\\/]/.test(path);
    build.onResolve({ filter: /^[^./#]/ }, (args) => {
      if (args.path.startsWith('node:')) return undefined;
      if (!/^svelte(\/.*)?$/.test(args.path) && !isSvelteFile(args.importer)) return undefined;
      return { path: fileURLToPath(import.meta.resolve(args.path)) };
    });
    build.onLoad({ filter: /\.svelte$/ }, async (args) => ({
      contents: compileForServer(await readFile(args.path, 'utf8'), args.path),
      loader: 'js',
    }));
  },
};
