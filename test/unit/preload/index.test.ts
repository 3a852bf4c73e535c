import { describe, expect, it, vi } from 'vitest';

const exposeInMainWorld = vi.fn();
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld },
  ipcRenderer: { invoke: vi.fn(), on: vi.fn(), removeListener: vi.fn() },
}));

describe('preload', () => {
  it('exposes window.fieldkit with functions only', async () => {
    await import('../../../electron/preload/index');
    expect(exposeInMainWorld).toHaveBeenCalledTimes(1);
    const [name, api] = exposeInMainWorld.mock.calls[0] as [string, Record<string, unknown>];
    expect(name).toBe('fieldkit');
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    for (const value of Object.values(api)) expect(typeof value).toBe('function');
  });
});
