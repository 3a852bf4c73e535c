// Entry of the Electron main process (bundled to out/main/index.js by build/bundle-electron.mjs).
import { join } from 'node:path';
import * as electron from 'electron';
import { startDemoWhenUnconfigured } from './demo';
import { runMain } from './main';

const here = import.meta.dirname;
runMain(
  electron,
  { preload: join(here, '..', 'preload', 'index.cjs'), renderer: join(here, '..', 'renderer') },
  { onServicesReady: startDemoWhenUnconfigured },
);
