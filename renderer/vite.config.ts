import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

// The renderer never imports node:* (lint layering), so paths come from import.meta.dirname, which Vite fills in
// when it bundles this config.
const RENDERER_ROOT = import.meta.dirname;

/** Builds the renderer into out/renderer with relative asset paths, so both app:// and the browser host serve it. */
export default defineConfig({
  root: RENDERER_ROOT,
  base: './',
  plugins: [svelte()],
  build: {
    outDir: `${RENDERER_ROOT}/../out/renderer`,
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
  },
  server: { host: '127.0.0.1', strictPort: false },
});
