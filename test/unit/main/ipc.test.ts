import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IpcMainInvokeEvent, WebContents, WebFrameMain } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerIpc } from '../../../electron/main/ipc';
import { FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import { contract } from '../../../electron/shared/ipc/contract';
import { stubOf } from '../../helpers/stub';

type Handler = (event: IpcMainInvokeEvent, input: unknown) => Promise<unknown>;

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-main-ipc-'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function setUp() {
  const services = await FieldKitServices.create({
    dataDir: folder,
    mode: 'electron',
    version: '1.2.3',
    credentials: { store: new MemoryStore(), keychain: 'os' },
    createSession: () => {
      throw new Error('not used');
    },
  });
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handle: vi.fn((channel: string, handler: Handler) => handlers.set(channel, handler)),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
  };
  // The frame's URL changes when it shows another page: a test sets it on this object.
  const mainFrame = { url: 'app://fieldkit/index.html' };
  const contents = stubOf<WebContents>({
    mainFrame: stubOf<WebFrameMain>(mainFrame),
    isDestroyed: () => false,
    send: vi.fn(),
  });
  const unregister = registerIpc({ ipcMain, services, getWebContents: () => contents });
  const call = (channel: string, event: Partial<IpcMainInvokeEvent>, input?: unknown) =>
    handlers.get(channel)?.(stubOf<IpcMainInvokeEvent>(event), input);
  return { services, handlers, ipcMain, contents, mainFrame, unregister, call };
}

describe('registerIpc', () => {
  it('registers a handler for exactly the contract channels', async () => {
    const { handlers } = await setUp();
    expect([...handlers.keys()].sort()).toEqual(Object.keys(contract).sort());
  });

  it('answers our main frame', async () => {
    const { call, contents, mainFrame } = await setUp();
    const result = await call('app:info', { sender: contents, senderFrame: stubOf<WebFrameMain>(mainFrame) });
    expect(result).toEqual({ ok: true, value: { version: '1.2.3', mode: 'electron', keychain: 'os' } });
  });

  it('refuses a subframe of our window', async () => {
    const { call, contents } = await setUp();
    const result = await call('app:info', {
      sender: contents,
      senderFrame: stubOf<WebFrameMain>({ url: 'app://fieldkit/index.html' }),
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('refuses another web contents', async () => {
    const { call, mainFrame } = await setUp();
    const result = await call('app:info', {
      sender: stubOf<WebContents>({}),
      senderFrame: stubOf<WebFrameMain>(mainFrame),
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('refuses our main frame once it shows a page that is not ours', async () => {
    const { call, contents, mainFrame } = await setUp();
    mainFrame.url = 'https://evil.example/';
    const result = await call('app:info', { sender: contents, senderFrame: stubOf<WebFrameMain>(mainFrame) });
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('answers INTERNAL for a server answer nested 6,000 levels deep instead of handing Electron a value it cannot clone', async () => {
    const { call, contents, mainFrame, services } = await setUp();
    let deep: unknown = [];
    for (let level = 0; level < 6_000; level += 1) deep = [deep];
    services.handlers['api:call'] = () => ({
      data: [],
      extra: deep,
    });
    const result = await call(
      'api:call',
      { sender: contents, senderFrame: stubOf<WebFrameMain>(mainFrame) },
      { endpoint: 'listGateways' },
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
  });

  it('forwards contract events to our window', async () => {
    const { services, contents } = await setUp();
    services.events.emit('session:changed', null);
    expect(contents.send).toHaveBeenCalledWith('session:changed', null);
  });

  it('removes every handler when unregistered', async () => {
    const { handlers, unregister } = await setUp();
    unregister();
    expect(handlers.size).toBe(0);
  });
});
