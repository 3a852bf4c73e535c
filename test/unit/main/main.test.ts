import { EventEmitter } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FieldKitServices as Services } from '../../../electron/app';
import { stubOf } from '../../helpers/stub';

const mocks = vi.hoisted(() => {
  const state = { folder: '', hasLock: true };
  const appEvents = new Map<string, ((...args: unknown[]) => void)[]>();
  /** The parts of a created window the tests read. */
  interface CreatedWindow {
    loadURL: unknown;
    emit(name: string, ...args: unknown[]): boolean;
  }
  const windows: { options: Record<string, unknown>; window: CreatedWindow }[] = [];
  return { state, appEvents, windows };
});

vi.mock('keytar', () => ({
  default: {
    getPassword: async () => null,
    setPassword: async () => undefined,
    deletePassword: async () => false,
  },
}));

vi.mock('electron', async () => {
  const { EventEmitter } = await import('node:events');
  const { join } = await import('node:path');
  const { state, appEvents, windows } = mocks;
  class BrowserWindow extends EventEmitter {
    webContents = {
      mainFrame: { url: 'app://fieldkit/index.html' },
      isDestroyed: () => false,
      send: vi.fn(),
    };
    loadURL = vi.fn(async () => undefined);
    show = vi.fn();
    maximize = vi.fn();
    focus = vi.fn();
    restore = vi.fn();
    isMinimized = () => false;
    isMaximized = () => false;
    getNormalBounds = () => ({ x: 40, y: 50, width: 1111, height: 777 });
    constructor(options: Record<string, unknown>) {
      super();
      windows.push({ options, window: this });
    }
  }
  return {
    app: {
      requestSingleInstanceLock: vi.fn(() => state.hasLock),
      quit: vi.fn(),
      enableSandbox: vi.fn(),
      on: vi.fn((name: string, listener: (...args: unknown[]) => void) => {
        appEvents.set(name, [...(appEvents.get(name) ?? []), listener]);
      }),
      whenReady: vi.fn(async () => undefined),
      getPath: vi.fn((name: string) => join(state.folder, name)),
      getVersion: () => '9.9.9',
      exit: vi.fn(),
    },
    BrowserWindow,
    ipcMain: { handle: vi.fn(), removeHandler: vi.fn() },
    dialog: { showErrorBox: vi.fn() },
    Menu: { buildFromTemplate: vi.fn((template: unknown) => template), setApplicationMenu: vi.fn() },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    screen: { getAllDisplays: vi.fn(() => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }]) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: vi.fn(),
        setPermissionCheckHandler: vi.fn(),
        setDevicePermissionHandler: vi.fn(),
        webRequest: { onHeadersReceived: vi.fn() },
      },
    },
    shell: { openExternal: vi.fn(), openPath: vi.fn(async () => '') },
  };
});

const electron = await import('electron');
const { runMain } = await import('../../../electron/main/main');

const PATHS = { preload: '/app/out/preload/index.cjs', renderer: '/app/out/renderer' };

beforeEach(async () => {
  mocks.state.folder = await mkdtemp(join(tmpdir(), 'fieldkit-main-'));
  mocks.state.hasLock = true;
  mocks.appEvents.clear();
  mocks.windows.length = 0;
  vi.clearAllMocks();
});
afterEach(async () => {
  await rm(mocks.state.folder, { recursive: true, force: true });
});

/** Stands in for `process` so that the fault listeners runMain adds never reach the test runner's own. */
const faults = new EventEmitter();

async function startMain() {
  let services: Services | undefined;
  runMain(
    electron,
    PATHS,
    {
      onServicesReady: (ready) => {
        services = ready;
      },
    },
    faults,
  );
  await vi.waitFor(() => expect(mocks.windows[0]?.window.loadURL).toHaveBeenCalled());
  return { services: services as Services, window: mocks.windows[0]! };
}

function emitApp(name: string, ...args: unknown[]) {
  for (const listener of mocks.appEvents.get(name) ?? []) listener(...args);
}

describe('Electron main process', () => {
  it('quits at once when another instance holds the lock', () => {
    mocks.state.hasLock = false;
    expect(runMain(electron, PATHS)).toBe(false);
    expect(electron.app.quit).toHaveBeenCalled();
    expect(mocks.windows).toHaveLength(0);
  });

  it('opens one sandboxed, isolated window on app://fieldkit with our preload', async () => {
    const { window } = await startMain();
    expect(window.options.webPreferences).toMatchObject({
      preload: PATHS.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    });
    expect(window.window.loadURL).toHaveBeenCalledWith('app://fieldkit/index.html');
  });

  it('serves the renderer over the privileged app:// scheme, never file://', async () => {
    await startMain();
    expect(electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({
        scheme: 'app',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ]);
    expect(electron.protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
  });

  it('denies permission requests on the default session', async () => {
    await startMain();
    expect(electron.session.defaultSession.setPermissionRequestHandler).toHaveBeenCalled();
  });

  it('adds the strict CSP to every response of the default session', async () => {
    await startMain();
    const onHeaders = vi.mocked(electron.session.defaultSession.webRequest.onHeadersReceived);
    const listener = onHeaders.mock.calls[0]?.[0];
    if (typeof listener !== 'function') throw new Error('No listener for response headers was added.');
    const callback = vi.fn();
    listener(
      stubOf<Electron.OnHeadersReceivedListenerDetails>({
        responseHeaders: { 'content-type': ['text/html'] },
      }),
      callback,
    );
    expect(callback.mock.calls[0]?.[0].responseHeaders['Content-Security-Policy'][0]).toContain(
      "script-src 'self'",
    );
  });

  it('hardens every web contents created', async () => {
    await startMain();
    const contents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn(), getURL: () => '' });
    emitApp('web-contents-created', {}, contents);
    expect(contents.setWindowOpenHandler).toHaveBeenCalled();
    expect(contents.listenerCount('will-navigate')).toBe(1);
  });

  it('runs the shutdown hooks (terminals, tunnels) before quitting', async () => {
    const { services } = await startMain();
    const closeTerminals = vi.fn();
    services.addShutdownHook(closeTerminals);
    const event = { preventDefault: vi.fn() };
    emitApp('before-quit', event);
    expect(event.preventDefault).toHaveBeenCalled();
    await vi.waitFor(() => expect(electron.app.quit).toHaveBeenCalled());
    expect(closeTerminals).toHaveBeenCalledTimes(1);
  });

  it('remembers the window bounds when the window closes', async () => {
    const { window } = await startMain();
    window.window.emit('close');
    const path = join(mocks.state.folder, 'userData', 'window-state.json');
    await vi.waitFor(async () => {
      expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({
        x: 40,
        y: 50,
        width: 1111,
        height: 777,
      });
    });
  });

  it('says why and exits when start-up fails', async () => {
    vi.mocked(electron.screen.getAllDisplays).mockImplementationOnce(() => {
      throw new Error('no display');
    });
    runMain(electron, PATHS, {}, faults);
    await vi.waitFor(() => expect(electron.app.exit).toHaveBeenCalledWith(1));
    expect(electron.dialog.showErrorBox).toHaveBeenCalledWith('OAM Field Kit could not start', 'no display');
  });

  it('writes an unhandled rejection to main.log and keeps running', async () => {
    await startMain();
    faults.emit('unhandledRejection', new RangeError('Maximum call stack size exceeded'));
    await vi.waitFor(async () =>
      expect(await readFile(join(mocks.state.folder, 'logs', 'main.log'), 'utf8')).toContain(
        'ERROR unhandled rejection (kept running): RangeError: Maximum call stack size exceeded',
      ),
    );
    expect(electron.app.exit).not.toHaveBeenCalled();
  });

  it('offers "Open logs folder" in the menu, opening the logs path', async () => {
    await startMain();
    const template = vi.mocked(electron.Menu.buildFromTemplate).mock
      .calls[0]?.[0] as MenuItemConstructorOptions[];
    const help = template.find((item) => item.role === 'help');
    const item = (help?.submenu as MenuItemConstructorOptions[]).find(
      (entry) => entry.label === 'Open logs folder',
    );
    (item?.click as () => void)();
    expect(electron.shell.openPath).toHaveBeenCalledWith(join(mocks.state.folder, 'logs'));
  });
});

describe('Electron demo (no profile configured)', () => {
  it('offers the demo gateway console and the relay, with the relay password known', async () => {
    const { startDemoWhenUnconfigured } = await import('../../../electron/main/demo');
    let services: Services | undefined;
    runMain(
      electron,
      PATHS,
      {
        onServicesReady: async (ready) => {
          services = ready;
          return startDemoWhenUnconfigured(ready);
        },
      },
      faults,
    );
    await vi.waitFor(() => expect(mocks.windows[0]?.window.loadURL).toHaveBeenCalled(), { timeout: 20_000 });
    const handlers = services!.handlers;
    try {
      const ports = await handlers['serial:ports'](undefined, { channel: 'serial:ports' });
      expect(ports.ports).toContainEqual(
        expect.objectContaining({ label: 'Demo gateway console', isDemo: true }),
      );
      const { profiles, selectedId } = await handlers['profiles:list'](undefined, {
        channel: 'profiles:list',
      });
      const demo = profiles.find((profile) => profile.id === selectedId);
      expect(demo).toMatchObject({
        isDemo: true,
        relay: { host: '127.0.0.1', port: expect.any(Number), username: expect.any(String) },
        relayPasswordStored: true,
      });
      // Signed in to the demo, reverse SSH gets past the relay (its password is known) to the gateway's login.
      const account = demo!.demoAccounts![0]!;
      await handlers['session:login'](
        { profileId: demo!.id, username: account.username, password: account.password, remember: 'none' },
        { channel: 'session:login' },
      );
      const consolePort = ports.ports.find((port) => port.isDemo)!;
      const gatewayId = consolePort.serialNumber!.replace(/^DEMO-/, '');
      await expect(
        handlers['ssh:open-reverse']({ gatewayId, cols: 80, rows: 24 }, { channel: 'ssh:open-reverse' }),
      ).rejects.toMatchObject({ details: { reason: 'ROOT_PASSWORD_REQUIRED' } });
    } finally {
      await services!.close();
    }
  });
});
