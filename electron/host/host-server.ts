import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { encodeEventFrame, hasBinaryData } from '../shared/ipc/event-frame';
import {
  HOST_BUSY_CODE,
  HOST_KEY_FRAGMENT_NAME,
  HOST_KEY_PROTOCOL_PREFIX,
  HOST_KEY_REFUSED_CODE,
  HOST_PROTOCOL,
} from '../shared/ipc/host-key';
import { fail, type Result } from '../shared/ipc/result';
import { createRouter } from '../shared/ipc/router';
import { buildContentSecurityPolicy, type FieldKitServices } from '../app';
import { serveStatic } from './static-files';
import { SYSTEM_CLOCK, type Clock } from '../shared/clock';

/** The only address the host ever binds: the browser host is for this computer alone. */
export const HOST_ADDRESS = '127.0.0.1';
/** The WebSocket path of the IPC bridge. */
export const IPC_PATH = '/ipc';
/** How long a printed link stays usable when nobody opens it (each link also works only once). */
export const LINK_LIFETIME_MS = 5 * 60 * 1000;
/** The largest IPC message accepted (a firmware or backup body fits; a flood does not). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/**
 * The most WebSockets holding this run's key served at once: the host serves one person's tabs (one socket each),
 * so more is a runaway page or a flood. The next one is closed with HOST_BUSY_CODE and BUSY_MESSAGE.
 */
export const MAX_CONNECTIONS = 16;
/** The close reason of a socket past MAX_CONNECTIONS (at most 123 bytes, the limit of a close frame). */
export const BUSY_MESSAGE = `Field Kit already serves ${MAX_CONNECTIONS} connections, the most it takes: close another Field Kit tab.`;
/** The close reason of a socket without this run's key. */
export const KEY_REFUSED_MESSAGE =
  'This page holds no key for this run of Field Kit: open the link the host printed.';

const INTERNAL_ANSWER_MESSAGE = 'Something went wrong inside Field Kit. The details are in the log.';

/** How to start the host server around already-built services. */
export interface HostServerOptions {
  services: FieldKitServices;
  /** The built renderer (`out/renderer`). */
  rendererDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Refused unless 127.0.0.1: the host never listens on another address. */
  host?: string;
  /** The token of the first link; random by default (tests may fix it). */
  token?: string;
  /** Milliseconds since the epoch (tests move time to expire links). */
  clock?: Pick<Clock, 'now'>;
  /** Called after the host stopped listening (e.g. to stop the demo simulator). */
  onClose?: () => Promise<void> | void;
}

/** A running host. */
export interface RunningHost {
  /**
   * A link to open: `http://127.0.0.1:<port>/?token=<token>`. Each read issues a new link, which signs in one
   * browser once and expires LINK_LIFETIME_MS after it was issued if nobody opens it.
   */
  readonly url: string;
  port: number;
  close(): Promise<void>;
}

/** Thrown when asked to bind anything but 127.0.0.1. */
export class HostAddressError extends Error {
  override readonly name = 'HostAddressError';
}

/**
 * Serves the built renderer and the IPC router over a WebSocket on 127.0.0.1. Guarantees: only a page that
 * opened a link of this run gets a working socket — a link's token is exchanged once, within LINK_LIFETIME_MS,
 * for this run's key, handed to the page in the redirect's fragment (`/#fieldkit-key=…`), which only that page
 * can read; the socket needs the key as a subprotocol (never a cookie, which every port and page of 127.0.0.1
 * would share), our own Origin and Host; a key from an earlier run is refused; at most MAX_CONNECTIONS sockets
 * are served; every call goes through the same router as Electron's. See docs/adr/0005-host-credential.md.
 */
export async function startHostServer(options: HostServerOptions): Promise<RunningHost> {
  if (options.host !== undefined && options.host !== HOST_ADDRESS) {
    throw new HostAddressError(`The browser host only listens on ${HOST_ADDRESS}; refusing ${options.host}.`);
  }
  const { services } = options;
  const clock = options.clock ?? SYSTEM_CLOCK;
  const now = () => clock.now();
  /** Unused link tokens and when each expires. */
  const links = new Map<string, number>();
  const issueLinkToken = (token = randomBytes(24).toString('base64url')): string => {
    for (const [unused, expiresAt] of links) if (expiresAt <= now()) links.delete(unused);
    links.set(token, now() + LINK_LIFETIME_MS);
    return token;
  };
  const firstToken = issueLinkToken(options.token);
  /** Link tokens already exchanged: opened again (a second tab, a test's second visit), they lead to `/` only. */
  const spentLinks = new Set<string>();
  /** What `offered` is: an unused, unexpired link token (now consumed), a spent one, or neither. */
  const takeLinkToken = (offered: string): 'taken' | 'spent' | 'refused' => {
    for (const [token, expiresAt] of links) {
      if (!safeEqual(offered, token)) continue;
      links.delete(token);
      if (expiresAt <= now()) return 'refused';
      spentLinks.add(token);
      return 'taken';
    }
    for (const token of spentLinks) if (safeEqual(offered, token)) return 'spent';
    return 'refused';
  };
  const hostKey = randomBytes(32).toString('base64url');
  const sockets = new Set<WebSocket>();
  let port = 0;
  let origin = '';

  const router = createRouter<WebSocket>({
    handlers: services.handlers,
    isTrustedSender: (socket) => sockets.has(socket),
    mapError: services.mapError,
    onInternalError: services.onInternalError,
  });

  /** True when one of the socket's offered subprotocols is this run's key. */
  const hasHostKey = (request: IncomingMessage): boolean =>
    (request.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((protocol) => protocol.trim())
      .some(
        (protocol) =>
          protocol.startsWith(HOST_KEY_PROTOCOL_PREFIX) &&
          safeEqual(protocol.slice(HOST_KEY_PROTOCOL_PREFIX.length), hostKey),
      );
  const hasOurHost = (request: IncomingMessage): boolean =>
    request.headers.host === `${HOST_ADDRESS}:${port}`;

  const securityHeaders = (): Record<string, string> => ({
    'content-security-policy': buildContentSecurityPolicy([`ws://${HOST_ADDRESS}:${port}`]),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  });

  const refuse = (response: ServerResponse, status: number, message: string) => {
    response.writeHead(status, { ...securityHeaders(), 'content-type': 'text/plain; charset=utf-8' });
    response.end(`${message}\n`);
  };

  const server = createServer((request, response) => {
    void handleRequest(request, response).catch((error: unknown) => {
      services.log.error('host request failed', error);
      if (!response.headersSent) refuse(response, 500, 'Internal error.');
      else response.destroy();
    });
  });

  async function handleRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (!hasOurHost(request)) return refuse(response, 421, 'Wrong Host header.');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return refuse(response, 405, 'Method not allowed.');
    }
    const url = new URL(request.url ?? '/', origin);
    const offered = url.searchParams.get('token');
    if (offered !== null) {
      const outcome = takeLinkToken(offered);
      if (outcome === 'refused') {
        return refuse(
          response,
          403,
          'This link has expired or is not from this run of Field Kit. Restart Field Kit for a new one.',
        );
      }
      // Always `/`: echoing the request path made `/.//evil.example/x` a redirect to `//evil.example/x`. The key
      // rides in the fragment, which the browser keeps to itself; a spent link leads to `/` alone, where a page
      // that already holds the key goes on with it and any other is told to open a new link.
      const location = outcome === 'taken' ? `/#${HOST_KEY_FRAGMENT_NAME}=${hostKey}` : '/';
      response.writeHead(303, { ...securityHeaders(), 'cache-control': 'no-store', location });
      response.end();
      return;
    }
    const served = await serveStatic(options.rendererDir, url.pathname, response, securityHeaders());
    if (!served) refuse(response, 404, 'Not found.');
  }

  const webSockets = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    // Selecting our own protocol (never the key's) keeps the key out of the answer.
    handleProtocols: (protocols) => (protocols.has(HOST_PROTOCOL) ? HOST_PROTOCOL : false),
  });

  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    const path = new URL(request.url ?? '/', origin).pathname;
    const allowed = path === IPC_PATH && hasOurHost(request) && request.headers.origin === origin;
    if (!allowed) {
      services.log.info(`refused a WebSocket (path ${path}, origin ${String(request.headers.origin)})`);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    // Refusals past the handshake carry a close code and reason a page can read (an HTTP status it cannot): it
    // then says why instead of retrying. Such a socket never reaches the router and is not counted.
    const refusal = !hasHostKey(request)
      ? { code: HOST_KEY_REFUSED_CODE, reason: KEY_REFUSED_MESSAGE }
      : sockets.size >= MAX_CONNECTIONS
        ? { code: HOST_BUSY_CODE, reason: BUSY_MESSAGE }
        : undefined;
    if (refusal) {
      services.log.info(`refused a WebSocket: ${refusal.reason}`);
      webSockets.handleUpgrade(request, socket, head, (webSocket) => {
        webSocket.close(refusal.code, refusal.reason);
      });
      return;
    }
    webSockets.handleUpgrade(request, socket, head, (webSocket) => {
      sockets.add(webSocket);
      // The page is gone with its socket: calls still working only for its answers stop (CallContext.signal).
      const gone = new AbortController();
      const forget = () => {
        sockets.delete(webSocket);
        gone.abort();
      };
      webSocket.on('close', forget);
      webSocket.on('error', forget);
      webSocket.on('message', (data, isBinary) => {
        void answer(webSocket, data, isBinary, gone.signal);
      });
    });
  });

  async function answer(
    webSocket: WebSocket,
    data: RawData,
    isBinary: boolean,
    signal: AbortSignal,
  ): Promise<void> {
    if (isBinary) return;
    let message: unknown;
    try {
      message = JSON.parse(data.toString());
    } catch {
      return sendAnswer(webSocket, null, fail('INVALID_INPUT', 'A call must be one JSON object.'));
    }
    const call = typeof message === 'object' && message !== null && !Array.isArray(message) ? message : {};
    const { id, channel, input } = call as { id?: unknown; channel?: unknown; input?: unknown };
    if (typeof id !== 'number' || !Number.isFinite(id)) {
      return sendAnswer(webSocket, null, fail('INVALID_INPUT', 'A call needs a numeric id.'));
    }
    sendAnswer(webSocket, id, await router.dispatch(channel, input, webSocket, signal));
  }

  /** Sends one answer; one that cannot be serialised goes out as INTERNAL instead (the cause goes to the log). */
  function sendAnswer(webSocket: WebSocket, id: number | null, result: Result): void {
    if (webSocket.readyState !== webSocket.OPEN) return;
    let text: string;
    try {
      text = JSON.stringify({ id, result });
    } catch (error) {
      services.log.error('an answer could not be serialised', error);
      text = JSON.stringify({ id, result: fail('INTERNAL', INTERNAL_ANSWER_MESSAGE) });
    }
    webSocket.send(text, (error) => {
      if (error) services.log.info(`an answer was not sent: ${error.message}`);
    });
  }

  const stopEvents = services.events.onAny((event, payload) => {
    const open = [...sockets].filter((webSocket) => webSocket.readyState === webSocket.OPEN);
    if (!hasBinaryData(payload)) {
      const text = JSON.stringify({ event, payload });
      for (const webSocket of open) webSocket.send(text);
      return;
    }
    // One binary message in two fragments, sent back to back so nothing can come between them.
    const [prefix, data] = encodeEventFrame(event, payload);
    for (const webSocket of open) {
      webSocket.send(prefix, { binary: true, fin: false });
      webSocket.send(data, { binary: true, fin: true });
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, HOST_ADDRESS, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  origin = `http://${HOST_ADDRESS}:${port}`;

  let closing: Promise<void> | undefined;
  let isFirstLinkRead = false;
  return {
    get url() {
      // The first read hands out the link made at start (its token may be fixed by a test).
      const token = isFirstLinkRead ? issueLinkToken() : firstToken;
      isFirstLinkRead = true;
      return `${origin}/?token=${token}`;
    },
    port,
    close() {
      closing ??= (async () => {
        stopEvents();
        for (const webSocket of sockets) webSocket.terminate();
        webSockets.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await options.onClose?.();
      })();
      return closing;
    },
  };
}

function safeEqual(offered: string, expected: string): boolean {
  const a = Buffer.from(offered);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
