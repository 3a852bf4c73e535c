import { EventEmitter } from 'node:events';
import type { BrowserWindowConstructorOptions, Session, WebContents } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import {
  APP_ENTRY_URL,
  createMainWindow,
  restrictPermissions,
  hardenWebContents,
  isAppUrl,
  isExternalWebUrl,
} from '../../../electron/main/window';
import { stubOf } from '../../helpers/stub';

function buildContents(currentUrl = APP_ENTRY_URL) {
  const emitter = new EventEmitter();
  let openHandler: Parameters<WebContents['setWindowOpenHandler']>[0] | undefined;
  const contents: WebContents = stubOf<WebContents>({
    getURL: () => currentUrl,
    setWindowOpenHandler: (handler) => {
      openHandler = handler;
    },
    on: (event: string, listener: Parameters<EventEmitter['on']>[1]) => {
      emitter.on(event, listener);
      return contents;
    },
  });
  return {
    contents,
    emitter,
    open: (url: string) => openHandler?.(stubOf<Electron.HandlerDetails>({ url })),
  };
}

function fire(emitter: EventEmitter, name: string, url?: string) {
  const event = { preventDefault: vi.fn() };
  emitter.emit(name, event, url);
  return event;
}

function buildWindowOptions(preload: string, bounds: Parameters<typeof createMainWindow>[2]) {
  let captured: BrowserWindowConstructorOptions = {};
  class FakeWindow {
    constructor(options: BrowserWindowConstructorOptions) {
      captured = options;
    }
  }
  createMainWindow(FakeWindow, preload, bounds);
  return captured;
}

describe('window options', () => {
  it('isolates and sandboxes the renderer with no Node and no webview', () => {
    const options = buildWindowOptions('/app/out/preload/index.cjs', null);
    expect(options.webPreferences).toMatchObject({
      disableBlinkFeatures: 'Auxclick',
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    });
  });

  it('opens with the remembered size and position', () => {
    const options = buildWindowOptions('/p', { x: 10, y: 20, width: 1000, height: 700, isMaximized: false });
    expect(options).toMatchObject({ x: 10, y: 20, width: 1000, height: 700 });
  });

  it('recognises only app://fieldkit pages as ours', () => {
    expect(isAppUrl('app://fieldkit/index.html')).toBe(true);
    expect(isAppUrl('app://other/index.html')).toBe(false);
    expect(isAppUrl('https://fieldkit/index.html')).toBe(false);
    expect(isAppUrl('file:///index.html')).toBe(false);
  });

  it('hands only plain http(s) URLs to the system browser', () => {
    expect(isExternalWebUrl('https://docs.example.com/')).toBe(true);
    expect(isExternalWebUrl('file:///etc/passwd')).toBe(false);
    expect(isExternalWebUrl('smb://share/x')).toBe(false);
    expect(isExternalWebUrl('https://user:pass@example.com/')).toBe(false);
  });
});

describe('hardened web contents', () => {
  it('blocks navigation to another page', () => {
    const { contents, emitter } = buildContents();
    hardenWebContents(contents, vi.fn());
    expect(fire(emitter, 'will-navigate', 'https://evil.example/').preventDefault).toHaveBeenCalled();
    expect(fire(emitter, 'will-navigate', 'file:///etc/passwd').preventDefault).toHaveBeenCalled();
  });

  it('blocks redirects away from the app and webview attachment', () => {
    const { contents, emitter } = buildContents();
    hardenWebContents(contents, vi.fn());
    expect(fire(emitter, 'will-redirect', 'https://evil.example/').preventDefault).toHaveBeenCalled();
    expect(fire(emitter, 'will-attach-webview').preventDefault).toHaveBeenCalled();
  });

  it('denies every new window, handing https links to the system browser', () => {
    const { contents, open } = buildContents();
    const openExternal = vi.fn();
    hardenWebContents(contents, openExternal);
    expect(open('https://docs.example.com/manual')).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledWith('https://docs.example.com/manual');
    expect(open('javascript:alert(1)')).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledTimes(1);
  });
});

describe('permissions', () => {
  type RequestHandler = (
    contents: unknown,
    permission: string,
    callback: (granted: boolean) => void,
    details: { requestingUrl: string },
  ) => void;
  type CheckHandler = (contents: unknown, permission: string, requestingOrigin: string) => boolean;

  function restrictedSession() {
    const handlers: { request?: RequestHandler; check?: CheckHandler; device?: () => boolean } = {};
    const session = stubOf<Session>({
      setPermissionRequestHandler: (handler: RequestHandler) => void (handlers.request = handler),
      setPermissionCheckHandler: (handler: CheckHandler) => void (handlers.check = handler),
      setDevicePermissionHandler: (handler: () => boolean) => void (handlers.device = handler),
    });
    restrictPermissions(session);
    const request = (permission: string, requestingUrl: string) => {
      const callback = vi.fn();
      handlers.request!({}, permission, callback, { requestingUrl });
      return callback.mock.calls[0]?.[0] as boolean;
    };
    return { handlers, request };
  }

  it('denies every permission request and check but the clipboard for the app page', () => {
    const { handlers, request } = restrictedSession();
    expect(request('media', 'app://fieldkit/index.html')).toBe(false);
    expect(request('notifications', 'app://fieldkit/index.html')).toBe(false);
    expect(handlers.check!({}, 'geolocation', 'app://fieldkit')).toBe(false);
    expect(handlers.device!()).toBe(false);
  });

  it('lets the app page read and write the clipboard (terminal Copy and Paste), and no other origin', () => {
    const { handlers, request } = restrictedSession();
    expect(request('clipboard-read', 'app://fieldkit/index.html')).toBe(true);
    expect(handlers.check!({}, 'clipboard-sanitized-write', 'app://fieldkit')).toBe(true);
    expect(request('clipboard-read', 'https://example.com/')).toBe(false);
    expect(handlers.check!({}, 'clipboard-sanitized-write', 'file://')).toBe(false);
  });
});
