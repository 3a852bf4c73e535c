import type { IpcErrorShape, Result } from './wire-types';
import { t } from './i18n';
import type { Clock } from '../../../electron/shared/clock';
import { appClock } from './clock';
import { decodeEventFrame } from '../../../electron/shared/ipc/event-frame';
import {
  HOST_BUSY_CODE,
  HOST_KEY_FRAGMENT_NAME,
  HOST_KEY_REFUSED_CODE,
  HOST_KEY_STORAGE_NAME,
  hostProtocols,
} from '../../../electron/shared/ipc/host-key';

// The only module that knows how the renderer reaches main: Electron's preload (`window.fieldkit`) or, in the
// browser host, a WebSocket at /ipc on the page's own origin speaking the same messages.

/** What the preload exposes as `window.fieldkit`: functions only. */
export interface Bridge {
  invoke(channel: string, input: unknown): Promise<Result>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}

/**
 * Whether the renderer can currently reach main. `open` is the only state in which calls are sent; `refused` means
 * the browser host turned the page away (no key of this run, or its most connections) and it waits for "retry now".
 */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'refused';

/**
 * A snapshot of the transport's link to main; `retryAt` is when the next reconnect attempt starts; `reason` is the
 * host's own words when it refused the page.
 */
export interface ConnectionSnapshot {
  status: ConnectionStatus;
  attempt: number;
  retryAt: number | null;
  reason?: string;
}

/** A bridge that also reports its connection and can be told to retry now. */
export interface Transport extends Bridge {
  connection(): ConnectionSnapshot;
  onConnection(listener: (snapshot: ConnectionSnapshot) => void): () => void;
  retryNow(): void;
  close(): void;
}

/** The part of the DOM WebSocket the socket transport uses (so tests can pass `ws`'s WebSocket). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onerror: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  /** Set to 'arraybuffer' so binary event frames (terminal output) arrive as ArrayBuffers. */
  binaryType?: string;
  send(data: string): void;
  close(): void;
}

/** Options of the WebSocket transport; every duration in milliseconds. */
export interface SocketTransportOptions {
  url: string;
  createSocket?: (url: string, protocols: string[]) => SocketLike;
  /**
   * The browser host's keys to offer, best first: a key the host refuses is dropped for the next (at once), and
   * the first it accepts is handed to `onKeyAccepted` (to keep) and offered on every reconnect.
   */
  hostKeys?: readonly string[];
  onKeyAccepted?: (key: string) => void;
  clock?: Clock;
  initialRetryDelayMs?: number;
  maxRetryDelayMs?: number;
  /** How long a call made while disconnected waits for the link to come back before it fails. */
  callWaitMs?: number;
}

/** First reconnect delay; doubled on each failed attempt up to MAX_RETRY_DELAY_MS. */
export const INITIAL_RETRY_DELAY_MS = 250;
/** Longest wait between two reconnect attempts. */
export const MAX_RETRY_DELAY_MS = 8_000;
/** How long a call waits for a lost link to come back. */
export const CALL_WAIT_MS = 15_000;

const OPEN = 1;

function failure(code: IpcErrorShape['code'], message: string): Result<never> {
  return { ok: false, error: { code, message } };
}

function isResult(value: unknown): value is Result {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { ok?: unknown; error?: { code?: unknown; message?: unknown } };
  if (candidate.ok === true) return 'value' in candidate;
  return (
    candidate.ok === false &&
    typeof candidate.error?.code === 'string' &&
    typeof candidate.error.message === 'string'
  );
}

/**
 * Speaks the IPC wire over a WebSocket: `{ id, channel, input }` out, `{ id, result }` and `{ event, payload }`
 * in (events carrying bytes as binary frames, electron/shared/ipc/event-frame.ts). Reconnects with exponential backoff for as long as it is open; a call made while disconnected waits for
 * the link (up to `callWaitMs`), and a call in flight when the link drops answers NETWORK rather than being
 * re-sent, because main may already have acted on it.
 */
export function createSocketTransport(options: SocketTransportOptions): Transport {
  const clock = options.clock ?? appClock;
  const createSocket =
    options.createSocket ??
    ((url: string, protocols: string[]) => new WebSocket(url, protocols) as unknown as SocketLike);
  const hostKeys = options.hostKeys ?? [];
  /** The key offered now; past the end of hostKeys, none (the host then refuses with its own words). */
  let keyIndex = 0;
  const initialDelay = options.initialRetryDelayMs ?? INITIAL_RETRY_DELAY_MS;
  const maxDelay = options.maxRetryDelayMs ?? MAX_RETRY_DELAY_MS;
  const callWaitMs = options.callWaitMs ?? CALL_WAIT_MS;

  const inFlight = new Map<number, (result: Result) => void>();
  const waiting = new Set<{ send: () => void; fail: (reason: string) => void; timer: unknown }>();
  const eventListeners = new Map<string, Set<(payload: unknown) => void>>();
  const connectionListeners = new Set<(snapshot: ConnectionSnapshot) => void>();

  let snapshot: ConnectionSnapshot = { status: 'connecting', attempt: 0, retryAt: null };
  let socket: SocketLike | null = null;
  let retryTimer: unknown = null;
  let nextId = 1;
  let isClosed = false;

  function publish(next: ConnectionSnapshot): void {
    snapshot = next;
    for (const listener of connectionListeners) listener(snapshot);
  }

  function connect(): void {
    retryTimer = null;
    publish({ ...snapshot, status: snapshot.attempt === 0 ? 'connecting' : 'reconnecting', retryAt: null });
    const key = hostKeys[keyIndex];
    const current = createSocket(options.url, hostProtocols(key));
    current.binaryType = 'arraybuffer';
    socket = current;
    current.onopen = () => {
      if (socket !== current) return;
      if (key !== undefined) options.onKeyAccepted?.(key);
      publish({ status: 'open', attempt: 0, retryAt: null });
      for (const call of [...waiting]) {
        waiting.delete(call);
        clock.clearTimeout(call.timer);
        call.send();
      }
    };
    current.onmessage = (message) => receive(message.data);
    current.onerror = () => {
      // Always followed by close, which does the work.
    };
    current.onclose = (event) => {
      if (socket !== current) return;
      socket = null;
      const { code, reason } = (event ?? {}) as { code?: unknown; reason?: unknown };
      for (const [id, resolve] of inFlight) {
        inFlight.delete(id);
        resolve(failure('NETWORK', t('app:backendLostCall')));
      }
      if (isClosed) return;
      if (code === HOST_KEY_REFUSED_CODE && keyIndex < hostKeys.length - 1) {
        keyIndex += 1;
        connect();
      } else if (code === HOST_KEY_REFUSED_CODE || code === HOST_BUSY_CODE) {
        refuse(typeof reason === 'string' && reason !== '' ? reason : t('app:backendRefusedPage'));
      } else scheduleReconnect();
    };
  }

  /** Stops retrying: the host said why, and retrying the same way would only be refused again. */
  function refuse(reason: string): void {
    publish({ status: 'refused', attempt: snapshot.attempt, retryAt: null, reason });
    for (const call of [...waiting]) {
      waiting.delete(call);
      clock.clearTimeout(call.timer);
      call.fail(reason);
    }
  }

  function scheduleReconnect(): void {
    const attempt = snapshot.attempt + 1;
    const delay = Math.min(maxDelay, initialDelay * 2 ** (attempt - 1));
    publish({ status: 'reconnecting', attempt, retryAt: clock.now() + delay });
    retryTimer = clock.setTimeout(connect, delay);
  }

  function receive(data: unknown): void {
    if (data instanceof ArrayBuffer) {
      const framed = decodeEventFrame(data);
      if (framed) for (const listener of eventListeners.get(framed.event) ?? []) listener(framed.payload);
      return;
    }
    if (typeof data !== 'string') return;
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    if (typeof message !== 'object' || message === null) return;
    const { id, result, event, payload } = message as {
      id?: unknown;
      result?: unknown;
      event?: unknown;
      payload?: unknown;
    };
    if (typeof id === 'number') {
      const resolve = inFlight.get(id);
      if (!resolve) return;
      inFlight.delete(id);
      resolve(isResult(result) ? result : failure('INTERNAL', t('app:backendUnreadable')));
      return;
    }
    if (typeof event === 'string') {
      for (const listener of eventListeners.get(event) ?? []) listener(payload);
    }
  }

  function send(channel: string, input: unknown, resolve: (result: Result) => void): void {
    const current = socket;
    if (!current || current.readyState !== OPEN) {
      resolve(failure('NETWORK', t('app:backendNotConnected')));
      return;
    }
    const id = nextId++;
    inFlight.set(id, resolve);
    current.send(JSON.stringify({ id, channel, input }));
  }

  connect();

  return {
    invoke(channel, input) {
      return new Promise<Result>((resolve) => {
        if (isClosed) {
          resolve(failure('NETWORK', t('app:backendClosed')));
          return;
        }
        if (snapshot.status === 'open') {
          send(channel, input, resolve);
          return;
        }
        if (snapshot.status === 'refused') {
          resolve(failure('NETWORK', snapshot.reason ?? t('app:backendRefusedPage')));
          return;
        }
        const call = {
          send: () => send(channel, input, resolve),
          fail: (reason: string) => resolve(failure('NETWORK', reason)),
          timer: null as unknown,
        };
        call.timer = clock.setTimeout(() => {
          waiting.delete(call);
          resolve(failure('TIMEOUT', 'The Field Kit backend did not come back in time; try again.'));
        }, callWaitMs);
        waiting.add(call);
      });
    },
    on(event, listener) {
      const listeners = eventListeners.get(event) ?? new Set();
      listeners.add(listener);
      eventListeners.set(event, listeners);
      return () => listeners.delete(listener);
    },
    connection: () => snapshot,
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => connectionListeners.delete(listener);
    },
    retryNow() {
      if (isClosed) return;
      if (snapshot.status === 'refused') {
        keyIndex = 0;
        connect();
        return;
      }
      if (retryTimer === null) return;
      clock.clearTimeout(retryTimer);
      connect();
    },
    close() {
      isClosed = true;
      if (retryTimer !== null) clock.clearTimeout(retryTimer);
      socket?.close();
    },
  };
}

/** Wraps Electron's preload bridge: always connected, since the link is in-process. */
export function createPreloadTransport(bridge: Bridge): Transport {
  const snapshot: ConnectionSnapshot = { status: 'open', attempt: 0, retryAt: null };
  return {
    invoke: (channel, input) => bridge.invoke(channel, input),
    on: (event, listener) => bridge.on(event, listener),
    connection: () => snapshot,
    onConnection: () => () => undefined,
    retryNow: () => undefined,
    close: () => undefined,
  };
}

/** The parts of `window` the default transport reads. */
export interface PageLike {
  fieldkit?: Bridge;
  location: { protocol: string; host: string; hash?: string; pathname?: string; search?: string };
  history?: Pick<History, 'replaceState'>;
  localStorage?: Pick<Storage, 'getItem' | 'setItem'>;
}

/**
 * The browser host's keys this page can offer, best first: one just handed over in the link's fragment (which
 * is then taken out of the address bar, before the router reads it), then the one this origin last had accepted.
 */
function readHostKeys(page: PageLike): string[] {
  const prefix = `#${HOST_KEY_FRAGMENT_NAME}=`;
  const hash = page.location.hash ?? '';
  const handed = hash.startsWith(prefix) ? hash.slice(prefix.length) : '';
  if (handed)
    page.history?.replaceState(null, '', `${page.location.pathname ?? '/'}${page.location.search ?? ''}`);
  let kept: string | null = null;
  try {
    kept = page.localStorage?.getItem(HOST_KEY_STORAGE_NAME) ?? null;
  } catch {
    // Storage turned off for this site: the page works until it is closed, then needs a new link.
  }
  return [...new Set([handed, kept ?? ''])].filter((key) => key !== '');
}

/**
 * Picks the transport for this page: the preload bridge under Electron, else the browser host's WebSocket at
 * /ipc on the page's own origin, offering this run's key (docs/adr/0005-host-credential.md). A key the host
 * accepted is kept in this origin's localStorage, which no other origin — another port, another name — can read
 * or write.
 */
export function createDefaultTransport(
  page: PageLike = window as unknown as PageLike,
  createSocket?: (url: string, protocols: string[]) => SocketLike,
): Transport {
  if (page.fieldkit) return createPreloadTransport(page.fieldkit);
  const scheme = page.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return createSocketTransport({
    url: `${scheme}//${page.location.host}/ipc`,
    createSocket,
    hostKeys: readHostKeys(page),
    onKeyAccepted: (key) => {
      try {
        page.localStorage?.setItem(HOST_KEY_STORAGE_NAME, key);
      } catch {
        // As above: kept for this page's life only.
      }
    },
  });
}

/**
 * Calls `callback` on every return of the link to main after a loss (not on the first connection); returns the
 * unsubscribe function. Events main pushed meanwhile were lost: state read from events must be read again.
 */
export function onReconnected(transport: Pick<Transport, 'onConnection'>, callback: () => void): () => void {
  let wasLost = false;
  return transport.onConnection((snapshot) => {
    if (snapshot.status !== 'open') wasLost = true;
    else if (wasLost) {
      wasLost = false;
      callback();
    }
  });
}
