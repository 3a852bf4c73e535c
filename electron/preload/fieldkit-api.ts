import { CHANNEL_NAMES, EVENT_NAME_LIST } from '../shared/ipc/channel-names';
import type { Result } from '../shared/ipc/result';

/** What the renderer gets as `window.fieldkit`: two functions, nothing else (no ipcRenderer, no event objects). */
export interface FieldkitApi {
  invoke(channel: string, input: unknown): Promise<Result>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/** The part of ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const ALLOWED_CHANNELS: ReadonlySet<string> = new Set<string>(CHANNEL_NAMES);
const ALLOWED_EVENTS: ReadonlySet<string> = new Set<string>(EVENT_NAME_LIST);

/** The channels and events the preload exposes: exactly the contract's (the parity test reads these). */
export const EXPOSED = { channels: [...ALLOWED_CHANNELS], events: [...ALLOWED_EVENTS] } as const;

/**
 * Builds `window.fieldkit` from the contract: `invoke` only reaches contract channels (others answer
 * INVALID_INPUT without touching IPC), `on` only subscribes to contract events and passes the payload alone.
 */
export function buildFieldkitApi(ipc: IpcRendererLike): FieldkitApi {
  return {
    invoke(channel, input) {
      if (typeof channel !== 'string' || !ALLOWED_CHANNELS.has(channel)) {
        return Promise.resolve({
          ok: false,
          error: {
            code: 'INVALID_INPUT',
            message: 'Unknown channel.',
            details: [{ path: '', message: 'Unknown channel' }],
          },
        });
      }
      return ipc.invoke(channel, input) as Promise<Result>;
    },
    on(event, listener) {
      if (typeof event !== 'string' || !ALLOWED_EVENTS.has(event) || typeof listener !== 'function') {
        return () => undefined;
      }
      const forward = (_event: unknown, payload: unknown) => listener(payload);
      ipc.on(event, forward);
      return () => {
        ipc.removeListener(event, forward);
      };
    },
  };
}
