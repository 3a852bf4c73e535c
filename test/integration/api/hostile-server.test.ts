// A server that answers badly on purpose (issue 22): each answer is refused with a message naming what was
// wrong, the token never leaves for another address, and the app keeps working.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES } from '../../../electron/services/api';
import { createDefaultServerSession, FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import { createRouter } from '../../../electron/shared/ipc/router';
import {
  answerLogin,
  makeAccessToken,
  sendJson,
  sendJsonText,
  startFakeOamServer,
  type FakeHandler,
  type FakeOamServer,
} from '../../helpers/fake-oam-server';

let folder: string;
let server: FakeOamServer;
let services: FieldKitServices;
let dispatch: (channel: string, input?: unknown) => Promise<unknown>;

const user = {
  id: { entityType: 'USER', id: 'user-1' },
  email: 'tech@acme.test',
  authority: 'CUSTOMER_USER',
  customerId: { entityType: 'CUSTOMER', id: 'customer-1' },
};

/** `[[[…0…]]]` nested `depth` levels deep, as JSON text: about 2 bytes a level. */
function nestedArrays(depth: number): string {
  return `${'['.repeat(depth)}0${']'.repeat(depth)}`;
}

async function saveProfile(baseUrl: string): Promise<{ ok: boolean; value?: { id: string } }> {
  return (await dispatch('profiles:save', { name: 'Hostile lab', baseUrl })) as {
    ok: boolean;
    value?: { id: string };
  };
}

async function logIn(): Promise<unknown> {
  const saved = await saveProfile(server.url);
  return dispatch('session:login', {
    profileId: saved.value!.id,
    username: 'tech@acme.test',
    password: 'secret',
    remember: 'none',
  });
}

/** Answers login as a good server does and every other request with `answer`. */
function answerOthersWith(answer: FakeHandler): void {
  server.handle = (request, response) => {
    if (request.url?.startsWith('/api/auth/login') || request.url?.startsWith('/api/auth/token'))
      answerLogin(request, response);
    else answer(request, response);
  };
}

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-hostile-'));
  server = await startFakeOamServer();
  services = await FieldKitServices.create({
    dataDir: folder,
    mode: 'browser',
    version: '0.0.0',
    credentials: { store: new MemoryStore(), keychain: 'os' },
    createSession: createDefaultServerSession,
  });
  const router = createRouter<null>({
    handlers: services.handlers,
    isTrustedSender: () => true,
    mapError: services.mapError,
  });
  dispatch = (channel, input) => router.dispatch(channel, input, null);
});

afterEach(async () => {
  await services.close();
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

describe('answers from a hostile server', () => {
  it('refuses a small answer nested 6,000 levels deep, and the refusal can be sent', async () => {
    const text = JSON.stringify(user).replace(/}$/, `,"extra":${nestedArrays(6000)}}`);
    answerOthersWith((_request, response) => sendJsonText(response, text));
    expect(await logIn()).toMatchObject({ ok: true });

    const result = await dispatch('api:call', { endpoint: 'getCurrentUser' });

    expect(result).toMatchObject({
      ok: false,
      error: { code: 'API_ERROR', message: expect.stringContaining('more than 64 levels deep') },
    });
    // What the router answers must be sendable: the deep value never reaches it.
    expect(() => JSON.stringify(result)).not.toThrow();
  });

  it('refuses an answer longer than 32 MB while it streams, before the server has sent it all', async () => {
    const chunk = `"${'x'.repeat(64 * 1024 - 3)}",`;
    const chunks = Math.ceil((MAX_ANSWER_BYTES * 1.5) / chunk.length);
    let written = 0;
    let isCut = false;
    answerOthersWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write(`{"id":{"entityType":"USER","id":"u"},"email":"e","authority":"a","padding":[`);
      response.once('close', () => (isCut = written < chunks));
      const writeMore = (): void => {
        while (written < chunks && !response.destroyed) {
          written += 1;
          if (!response.write(chunk)) return void response.once('drain', writeMore);
        }
        if (!response.destroyed) response.end('"end"]}');
      };
      writeMore();
    });
    expect(await logIn()).toMatchObject({ ok: true });

    const result = await dispatch('api:call', { endpoint: 'getCurrentUser' });

    expect(result).toMatchObject({
      ok: false,
      error: { code: 'API_ERROR', message: expect.stringContaining('larger than 32 MB') },
    });
    await expect.poll(() => isCut).toBe(true);
  });

  it('refuses an answer whose Content-Length is over 32 MB without reading it', async () => {
    answerOthersWith((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': MAX_ANSWER_BYTES + 1 });
      response.write('{');
    });
    expect(await logIn()).toMatchObject({ ok: true });

    expect(await dispatch('api:call', { endpoint: 'getCurrentUser' })).toMatchObject({
      ok: false,
      error: { code: 'API_ERROR', message: expect.stringContaining('larger than 32 MB') },
    });
  });

  it('refuses a compressed answer that inflates past 32 MB, however small it is on the wire', async () => {
    const inflated = Buffer.alloc(MAX_ANSWER_BYTES + 1024 * 1024, 'x');
    inflated.write('{"padding":"');
    const compressed = gzipSync(inflated);
    answerOthersWith((_request, response) => {
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': compressed.length,
      });
      response.end(compressed);
    });
    expect(await logIn()).toMatchObject({ ok: true });

    expect(await dispatch('api:call', { endpoint: 'getCurrentUser' })).toMatchObject({
      ok: false,
      error: { code: 'API_ERROR', message: expect.stringContaining('larger than 32 MB') },
    });
    expect(compressed.length).toBeLessThan(1024 * 1024);
  });

  it('answers a redirect as an error naming it, and the token never reaches the redirect target', async () => {
    const elsewhere = await startFakeOamServer((_request, response) => sendJson(response, user));
    try {
      answerOthersWith((_request, response) => {
        response.writeHead(302, { location: `${elsewhere.url}/collect` });
        response.end();
      });
      expect(await logIn()).toMatchObject({ ok: true });

      const result = await dispatch('api:call', { endpoint: 'getCurrentUser' });

      expect(result).toMatchObject({
        ok: false,
        error: { message: expect.stringContaining(`redirect (302 to ${elsewhere.url}/collect)`) },
      });
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses a profile with http:// to an address that is not this computer', async () => {
    for (const baseUrl of ['http://10.0.0.1', 'http://oam.example.com', 'http://[::2]:8080']) {
      expect(await saveProfile(baseUrl)).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT' },
      });
    }
    for (const baseUrl of ['http://127.0.0.2:8080', 'http://localhost:9000', 'http://[::1]:8080']) {
      expect(await saveProfile(baseUrl)).toMatchObject({ ok: true });
    }
  });

  it('refuses a path parameter that could leave its segment, naming the field, and sends nothing', async () => {
    answerOthersWith((_request, response) => sendJson(response, user));
    expect(await logIn()).toMatchObject({ ok: true });
    const sentBefore = server.requests.length;

    for (const customerId of ['..', '.', '%2e%2E', '%252e%252e', 'a/b', 'a\\b', 'a%2Fb', 'a%5cb']) {
      expect(await dispatch('api:call', { endpoint: 'getCustomer', params: { customerId } })).toMatchObject({
        ok: false,
        error: { code: 'INVALID_INPUT', details: [{ path: 'customerId' }] },
      });
    }
    expect(server.requests.slice(sentBefore)).toEqual([]);
  });

  it('refuses a login whose access token is not a JWT with a plausible exp, and stays logged out', async () => {
    const tokens = ['opaque-token', makeAccessToken({ exp: 'tomorrow' })];
    tokens.push(
      makeAccessToken({ exp: 1 }),
      makeAccessToken({ exp: 1e300 }),
      makeAccessToken({ iat: undefined, exp: 1 }),
    );
    for (const token of tokens) {
      server.handle = (_request, response) => sendJson(response, { token, refreshToken: 'r' });

      expect(await logIn()).toMatchObject({
        ok: false,
        error: { message: expect.stringContaining('not a JWT with an expiry time') },
      });
      expect(await dispatch('session:get')).toEqual({ ok: true, value: null });
    }
  });
  it('refuses a refreshed access token that is not a JWT, keeping the session it had', async () => {
    server.handle = (request, response) => {
      if (request.url === '/api/auth/login')
        sendJson(response, { token: makeAccessToken({}, 1), refreshToken: makeAccessToken({}, 86_400) });
      else if (request.url === '/api/auth/token') sendJson(response, { token: 'opaque', refreshToken: 'r' });
      else sendJson(response, user);
    };
    expect(await logIn()).toMatchObject({ ok: true });

    expect(await dispatch('api:call', { endpoint: 'getCurrentUser' })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('not a JWT with an expiry time') },
    });
    expect(await dispatch('session:get')).toMatchObject({ ok: true, value: { state: 'active' } });
  });
});
