import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import { encodeEventFrame, hasBinaryData } from '../shared/ipc/event-frame';
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
 * Serves the built renderer and the IPC router over a WebSocket on 127.0.0.1. Guarantees: only a browser that
 * opened a link of this run (and so holds this run's HttpOnly SameSite=Strict cookie) gets pages or a socket;
 * a link's token is exchanged once, within LINK_LIFETIME_MS, and the exchange always redirects to `/`; the
 * socket also needs our own Origin and Host; a cookie from an earlier run is refused; every call goes through
 * the same router as Electron's.
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
  /** Consumes `offered` when it is an unused, unexpired link token. */
  const takeLinkToken = (offered: string): boolean => {
    for (const [token, expiresAt] of links) {
      if (!safeEqual(offered, token)) continue;
      links.delete(token);
      return expiresAt > now();
    }
    return false;
  };
  const cookieSecret = randomBytes(32).toString('base64url');
  const sockets = new Set<WebSocket>();
  let port = 0;
  let origin = '';
  let cookieName = '';

  const router = createRouter<WebSocket>({
    handlers: services.handlers,
    isTrustedSender: (socket) => sockets.has(socket),
    mapError: services.mapError,
    onInternalError: services.onInternalError,
  });

  const hasSessionCookie = (request: IncomingMessage): boolean => {
    const value = readCookie(request.headers.cookie, cookieName);
    return value !== undefined && safeEqual(value, cookieSecret);
  };
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
      // A browser that already holds the cookie (a reload of the link, a second tab) needs no new one.
      const isSignedIn = hasSessionCookie(request);
      if (!takeLinkToken(offered) && !isSignedIn) {
        return refuse(
          response,
          403,
          'This link was already used, has expired or is not from this run of Field Kit. Restart Field Kit for a new one.',
        );
      }
      const headers = {
        ...securityHeaders(),
        ...(isSignedIn
          ? {}
          : { 'set-cookie': `${cookieName}=${cookieSecret}; HttpOnly; SameSite=Strict; Path=/` }),
        'cache-control': 'no-store',
      };
      if (request.headers['sec-fetch-site'] === 'cross-site') {
        // Opened from another site (the handoff page of `npm start` is a file:// page): the browser would not send
        // a SameSite=Strict cookie along a redirect begun there, so this page moves on to `/` from our own origin.
        response.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' });
        response.end(
          '<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/">' +
            '<title>Opening Field Kit…</title><p><a href="/">Open Field Kit</a></p>\n',
        );
        return;
      }
      // Always `/`: echoing the request path made `/.//evil.example/x` a redirect to `//evil.example/x`.
      response.writeHead(303, { ...headers, location: '/' });
      response.end();
      return;
    }
    if (!hasSessionCookie(request)) {
      return refuse(response, 403, "Open the URL that `npm run host` printed (it carries this run's token).");
    }
    const served = await serveStatic(options.rendererDir, url.pathname, response, securityHeaders());
    if (!served) refuse(response, 404, 'Not found.');
  }

  const webSockets = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });

  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    const path = new URL(request.url ?? '/', origin).pathname;
    const allowed =
      path === IPC_PATH &&
      hasOurHost(request) &&
      request.headers.origin === origin &&
      hasSessionCookie(request);
    if (!allowed) {
      services.log.info(`refused a WebSocket (path ${path}, origin ${String(request.headers.origin)})`);
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    webSockets.handleUpgrade(request, socket, head, (webSocket) => {
      sockets.add(webSocket);
      webSocket.on('close', () => sockets.delete(webSocket));
      webSocket.on('error', () => sockets.delete(webSocket));
      webSocket.on('message', (data, isBinary) => {
        void answer(webSocket, data, isBinary);
      });
    });
  });

  async function answer(webSocket: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
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
    sendAnswer(webSocket, id, await router.dispatch(channel, input, webSocket));
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
  // Cookies are not port-scoped: a name per port keeps two hosts on this machine from clobbering each other.
  cookieName = `fieldkit_${port}`;

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

function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function safeEqual(offered: string, expected: string): boolean {
  const a = Buffer.from(offered);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
