// An HTTP relay on loopback in front of the simulator that answers chosen requests with an error body (503 by
// default), as a failing OAM server would, and passes every other request through unchanged.
import {
  createServer,
  request as forward,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** Says whether a request (method and URL path with query) is to be answered with the error instead of passed on. */
export type FaultRule = (method: string, url: string) => boolean;

/** A running relay: `url` to point the app at, `failWhen` to choose what fails, `failed` counts the failures. */
export interface FaultProxy {
  url: string;
  /** From now on answers the requests `rule` picks with `status` (503 or 403); null passes everything. */
  failWhen(rule: FaultRule | null, status?: 503 | 403): void;
  /** From now on keeps the requests `rule` picks waiting (unanswered) until `release()`. */
  holdWhen(rule: FaultRule | null): void;
  /** Passes on every request kept waiting, and stops holding. */
  release(): void;
  /** How many requests are being kept waiting. */
  readonly held: number;
  readonly failed: number;
  close(): Promise<void>;
}

/** Starts a relay on 127.0.0.1 (a free port) to `targetUrl`; no request fails until `failWhen` says so. */
export async function startFaultProxy(targetUrl: string): Promise<FaultProxy> {
  const target = new URL(targetUrl);
  let rule: FaultRule | null = null;
  let failStatus = 503;
  let failed = 0;
  let holdRule: FaultRule | null = null;
  let held: Array<() => void> = [];
  const server: Server = createServer((incoming: IncomingMessage, outgoing) => {
    const url = incoming.url ?? '/';
    if (holdRule?.(incoming.method ?? 'GET', url)) {
      held.push(() => pass(incoming, outgoing, url));
      return;
    }
    if (rule?.(incoming.method ?? 'GET', url)) {
      failed++;
      const body = JSON.stringify({
        status: failStatus,
        message: failStatus === 403 ? 'Permission denied (test fault)' : 'Service unavailable (test fault)',
        errorCode: failStatus === 403 ? 20 : 2,
        timestamp: Date.now(),
      });
      outgoing.writeHead(failStatus, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      outgoing.end(body);
      return;
    }
    pass(incoming, outgoing, url);
  });
  function pass(incoming: IncomingMessage, outgoing: ServerResponse, url: string): void {
    const upstream = forward(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: url,
        headers: { ...incoming.headers, host: target.host },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    failWhen(next, status = 503) {
      rule = next;
      failStatus = status;
    },
    get failed() {
      return failed;
    },
    holdWhen(next) {
      holdRule = next;
    },
    release() {
      holdRule = null;
      const waiting = held;
      held = [];
      for (const forwardNow of waiting) forwardNow();
    },
    get held() {
      return held.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
