import type { BrowserWindow, BrowserWindowConstructorOptions, Session, WebContents } from 'electron';
import type { WindowBounds } from './window-state';

/** The scheme the renderer is served from (never file://). */
export const APP_SCHEME = 'app';
/** The host part of every renderer URL: `app://fieldkit/index.html`. */
export const APP_HOST = 'fieldkit';
/** The renderer's origin; only frames at this origin may call IPC. */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
/** The page the window opens. */
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * Opens the main window with every secure default set explicitly (context isolation, sandbox, no Node in
 * the renderer, no webview, web security on, middle-click windows off), so a change of Electron's defaults
 * cannot loosen them. The options are a literal here so the static security scan can read them.
 */
export function createMainWindow<MainWindow = BrowserWindow>(
  BrowserWindowClass: new (options: BrowserWindowConstructorOptions) => MainWindow,
  preloadPath: string,
  bounds: WindowBounds | null,
): MainWindow {
  return new BrowserWindowClass({
    width: bounds?.width ?? 1280,
    height: bounds?.height ?? 820,
    ...(bounds?.x !== undefined && bounds.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'OAM Field Kit',
    backgroundColor: '#1b1d22',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      disableBlinkFeatures: 'Auxclick',
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
    },
  });
}

/** True when a URL is a page of our own renderer. */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * Locks a window's contents down: every navigation away from our page and every new window is refused
 * (external http(s) links go to the system browser through `openExternal`), webviews cannot attach.
 */
export function hardenWebContents(contents: WebContents, openExternal: (url: string) => void): void {
  contents.on('will-navigate', (event, url) => {
    if (url !== contents.getURL()) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) openExternal(url);
    return { action: 'deny' };
  });
}

/**
 * The permissions our own page gets: the terminal's Copy and Paste buttons (and Ctrl+Shift+C / V) use the async
 * clipboard, which Chromium gates behind these two. Nothing else, and nothing for another origin.
 */
export const GRANTED_PERMISSIONS: ReadonlySet<string> = new Set([
  'clipboard-read',
  'clipboard-sanitized-write',
]);

/**
 * Denies every permission request and check (camera, geolocation, notifications, serial via web APIs…) but
 * GRANTED_PERMISSIONS asked by the app's own page.
 */
export function restrictPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(GRANTED_PERMISSIONS.has(permission) && isAppUrl(details.requestingUrl)),
  );
  session.setPermissionCheckHandler(
    (_contents, permission, requestingOrigin) =>
      GRANTED_PERMISSIONS.has(permission) && isAppUrl(requestingOrigin),
  );
  session.setDevicePermissionHandler(() => false);
}

/** True for a well-formed http(s) URL, the only kind handed to the system browser. */
export function isExternalWebUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      (parsed.protocol === 'https:' || parsed.protocol === 'http:') &&
      parsed.username === '' &&
      parsed.password === ''
    );
  } catch {
    return false;
  }
}

/** Sends every response through the strict CSP too (defence in depth beside the app:// header). */
export function enforceContentSecurityPolicy(session: Session, policy: string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } });
  });
}
