import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vitest/config';

// Three projects, one per folder: `npm test` runs them all, `npm test -- --project unit` only the unit tests.
// Unit tests spawn no process and build nothing; a test that does belongs in integration (or e2e, with Chromium).
export default defineConfig({
  // The site report's components (electron/shared/report/document/) are rendered on the main side with
  // svelte/server: compiled for the server on import, their styles in the rendered head (build/svelte-server.mjs
  // does the same for the Electron and host bundles and for tsx). The same plugin compiles the renderer's rune
  // modules (`*.svelte.ts`) that unit tests import.
  plugins: [svelte({ configFile: false, compilerOptions: { css: 'injected' } })],
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
    // The formatter's locale, fixed for the tests (the zone stays the machine's).
    setupFiles: ['test/helpers/format-locale.ts'],
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
    ],
  },
});
