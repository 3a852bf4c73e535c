// Sandboxed preload (bundled to CommonJS out/preload/index.cjs): exposes `window.fieldkit`, functions only.
import { contextBridge, ipcRenderer } from 'electron';
import { buildFieldkitApi } from './fieldkit-api';

contextBridge.exposeInMainWorld('fieldkit', buildFieldkitApi(ipcRenderer));
