import { describe, expect, it, vi } from 'vitest';
import { buildFieldkitApi, type IpcRendererLike } from '../../../electron/preload/fieldkit-api';

function buildIpc() {
  const listeners = new Map<string, (event: unknown, ...args: unknown[]) => void>();
  const ipc: IpcRendererLike & { emit(channel: string, payload: unknown): void } = {
    invoke: vi.fn(async () => ({ ok: true, value: null })),
    on: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      listeners.set(channel, listener);
    }),
    removeListener: vi.fn((channel: string) => {
      listeners.delete(channel);
    }),
    emit(channel, payload) {
      listeners.get(channel)?.({ sender: 'ipc-event-object' }, payload);
    },
  };
  return ipc;
}

describe('window.fieldkit', () => {
  it('forwards a contract channel to ipcRenderer.invoke', async () => {
    const ipc = buildIpc();
    await buildFieldkitApi(ipc).invoke('session:get', undefined);
    expect(ipc.invoke).toHaveBeenCalledWith('session:get', undefined);
  });

  it('answers INVALID_INPUT for a channel outside the contract without touching IPC', async () => {
    const ipc = buildIpc();
    const result = await buildFieldkitApi(ipc).invoke('fs:read', '/etc/passwd');
    expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(ipc.invoke).not.toHaveBeenCalled();
  });

  it('passes an event payload alone, never the IPC event object', () => {
    const ipc = buildIpc();
    const listener = vi.fn();
    buildFieldkitApi(ipc).on('session:changed', listener);
    ipc.emit('session:changed', null);
    expect(listener).toHaveBeenCalledWith(null);
    expect(listener.mock.calls[0]).toHaveLength(1);
  });

  it('ignores subscriptions to events outside the contract', () => {
    const ipc = buildIpc();
    buildFieldkitApi(ipc).on('ELECTRON_BROWSER_REQUIRE', vi.fn());
    expect(ipc.on).not.toHaveBeenCalled();
  });

  it('unsubscribes with the returned function', () => {
    const ipc = buildIpc();
    const off = buildFieldkitApi(ipc).on('app:notice', vi.fn());
    off();
    expect(ipc.removeListener).toHaveBeenCalledWith('app:notice', expect.any(Function));
  });
});
