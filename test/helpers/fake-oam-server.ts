// A stand-in OAM server on 127.0.0.1 for tests of what the app does with answers the simulator never gives:
// each test says how to answer, and the server records what reached it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the fake server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

/** Answers one request; the default handler answers login and refresh with a good token pair. */
export type FakeHandler = (request: IncomingMessage, response: ServerResponse) => void;

/** A running fake server. `handle` replaces how it answers; `requests` lists what reached it. */
export interface FakeOamServer {
  url: string;
  requests: SeenRequest[];
  handle: FakeHandler;
  close(): Promise<void>;
}

/** An unsigned JWT (the client reads claims, never signatures) valid for `lifetimeS` seconds from now. */
export function makeAccessToken(claims: Record<string, unknown> = {}, lifetimeS = 3600): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const issuedAt = Math.floor(Date.now() / 1000);
  const payload = {
    sub: 'tech@acme.test',
    userId: 'user-1',
    scopes: ['CUSTOMER_USER'],
    customerId: 'customer-1',
    iat: issuedAt,
    exp: issuedAt + lifetimeS,
    ...claims,
  };
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(payload)}.signature`;
}

/** Writes an answer of JSON text as it is given (it may be too deep for `JSON.stringify`). */
export function sendJsonText(response: ServerResponse, text: string, status = 200): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

/** Writes a JSON answer. */
export function sendJson(response: ServerResponse, body: unknown, status = 200): void {
  sendJsonText(response, JSON.stringify(body), status);
}

/** Answers login and refresh with a fresh token pair, anything else with 404 — what each test builds on. */
export const answerLogin: FakeHandler = (request, response) => {
  if (request.url === '/api/auth/login' || request.url === '/api/auth/token') {
    sendJson(response, { token: makeAccessToken(), refreshToken: makeAccessToken({}, 86_400) });
    return;
  }
  sendJson(response, { status: 404, message: 'Not found', errorCode: 32, timestamp: Date.now() }, 404);
};

/** Starts a fake server on 127.0.0.1 with an ephemeral port. */
export async function startFakeOamServer(handle: FakeHandler = answerLogin): Promise<FakeOamServer> {
  const server: Server = createServer((request, response) => {
    fake.requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    // The request body is not needed: drain it so the answer is not held up.
    request.resume();
    fake.handle(request, response);
  });
  const fake: FakeOamServer = {
    url: '',
    requests: [],
    handle,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
