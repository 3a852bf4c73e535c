import { join } from 'node:path';
import { t } from '../shared/i18n';
import type * as Electron from 'electron';
import {
  buildContentSecurityPolicy,
  createDefaultServerSession,
  FieldKitServices,
  logProcessFaults,
  type FaultSource,
} from '../app';
import type { DemoTerminalOptions } from '../app/demo-terminals';
import { ElectronPdfPrinter } from './pdf-printer';
import { openCredentialStore } from '../services/credentials';
import { createFileLog } from './file-log';
import { registerIpc } from './ipc';
import { buildMenuTemplate } from './menu';
import { createAppProtocolHandler } from './protocol';
import {
  APP_ENTRY_URL,
  APP_SCHEME,
  createMainWindow,
  restrictPermissions,
  enforceContentSecurityPolicy,
  hardenWebContents,
  isExternalWebUrl,
} from './window';
import { loadWindowBounds, saveWindowBounds } from './window-state';

/** The parts of the `electron` module the main process uses (the whole module in production, a mock in tests). */
export type ElectronModule = Pick<
  typeof Electron,
  'app' | 'BrowserWindow' | 'dialog' | 'ipcMain' | 'Menu' | 'protocol' | 'screen' | 'session' | 'shell'
>;

/** Where the bundles live relative to each other (out/main/index.js → out/preload/index.cjs, out/renderer). */
export interface MainPaths {
  preload: string;
  renderer: string;
}

/** Hooks that start optional parts (the demo simulator) without the main process knowing them. */
export interface MainHooks {
  /**
   * Called once the services exist and before the terminals are attached; may register shutdown hooks or a demo
   * profile, and answer the terminal options the demo brings (its serial console, its relay's known password).
   */
  onServicesReady?: (
    services: FieldKitServices,
  ) => Promise<DemoTerminalOptions | undefined | void> | DemoTerminalOptions | undefined | void;
}

/**
 * Runs the Electron main process: single-instance lock, `app://` scheme, services, IPC, menu, one hardened
 * window with remembered bounds; on quit every shutdown hook (terminals, tunnels) runs before exit.
 * Returns false when another instance already runs (this one quits). Once ready, an unhandled rejection or
 * uncaught exception of `faultSource` (the process) is written to main.log instead of ending the app.
 */
export function runMain(
  electron: ElectronModule,
  paths: MainPaths,
  hooks: MainHooks = {},
  faultSource: FaultSource = process,
): boolean {
  const { app, BrowserWindow, dialog, ipcMain, Menu, protocol, screen, session, shell } = electron;
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
  app.enableSandbox();

  let window: Electron.BrowserWindow | null = null;
  let services: FieldKitServices | null = null;
  let quitting = false;

  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, (url) => {
      // The scanner flags any non-literal URL; only http(s) URLs without credentials get here (isExternalWebUrl).
      if (isExternalWebUrl(url)) void shell.openExternal(url); /* eng-disable OPEN_EXTERNAL_JS_CHECK */
    });
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (quitting || !services) return;
    event.preventDefault();
    quitting = true;
    void services.close().finally(() => app.quit());
  });

  void app
    .whenReady()
    .then(async () => {
      const log = createFileLog(app.getPath('logs'));
      logProcessFaults(faultSource, log);
      const userData = app.getPath('userData');
      protocol.handle(APP_SCHEME, createAppProtocolHandler(paths.renderer));
      restrictPermissions(session.defaultSession);
      enforceContentSecurityPolicy(session.defaultSession, buildContentSecurityPolicy());
      const credentials = await openCredentialStore();
      services = await FieldKitServices.create({
        dataDir: userData,
        mode: 'electron',
        version: app.getVersion(),
        credentials,
        createSession: createDefaultServerSession,
        log,
        commissioning: {
          reportsDir: join(userData, 'reports'),
          printer: new ElectronPdfPrinter(BrowserWindow),
        },
      });
      // The demo decision comes first: its console and relay password are part of the terminals.
      const demoTerminalOptions = (await hooks.onServicesReady?.(services)) ?? {};
      services.attachTerminals({
        dataDir: userData,
        logsDir: join(app.getPath('logs'), 'sessions'),
        credentials: credentials.store,
        ...demoTerminalOptions,
      });
      registerIpc({ ipcMain, services, getWebContents: () => window?.webContents ?? null });
      const setMenu = (): void =>
        Menu.setApplicationMenu(
          Menu.buildFromTemplate(
            buildMenuTemplate(process.platform, {
              openLogsFolder: () => void shell.openPath(app.getPath('logs')),
            }),
          ),
        );
      setMenu();
      // The menu's own items follow the screen's language.
      services.onLanguageChange(setMenu);

      const boundsPath = join(userData, 'window-state.json');
      const workAreas = screen.getAllDisplays().map((display) => display.workArea);
      const bounds = await loadWindowBounds(boundsPath, workAreas);
      window = createMainWindow(BrowserWindow, paths.preload, bounds);
      if (bounds?.isMaximized) window.maximize();
      window.once('ready-to-show', () => window?.show());
      window.on('close', () => {
        if (!window) return;
        const { x, y, width, height } = window.getNormalBounds();
        void saveWindowBounds(boundsPath, { x, y, width, height, isMaximized: window.isMaximized() }).catch(
          (error: unknown) => log.error('could not save the window bounds', error),
        );
      });
      window.on('closed', () => {
        window = null;
      });
      await window.loadURL(APP_ENTRY_URL);
    })
    .catch((error: unknown) => {
      // Nothing can work without the services or the window: say why, then quit instead of hanging invisibly.
      dialog.showErrorBox(t('main:startFailedTitle'), error instanceof Error ? error.message : String(error));
      app.exit(1);
    });
  return true;
}
