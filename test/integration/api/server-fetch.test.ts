import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CertificateUntrustedError, createServerFetch } from '../../../electron/services/api';
import { makeSelfSignedCertificate } from '../../helpers/self-signed-certificate';

let server: Server;
let baseUrl: string;
let fingerprint: string;
const seenAuthorization: string[] = [];

beforeAll(async () => {
  const { key, cert, fingerprint256 } = await makeSelfSignedCertificate('field-kit-test');
  fingerprint = fingerprint256;
  server = createServer({ key, cert }, (request, response) => {
    seenAuthorization.push(String(request.headers.authorization ?? ''));
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ method: request.method, body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('createServerFetch', () => {
  it('refuses a self-signed certificate and names its fingerprint and subject, before sending the request', async () => {
    const before = seenAuthorization.length;
    const serverFetch = createServerFetch();
    const error = await serverFetch(`${baseUrl}/api/auth/login`, {
      headers: { authorization: 'Bearer secret' },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TypeError);
    const cause = (error as TypeError).cause;
    expect(cause).toBeInstanceOf(CertificateUntrustedError);
    expect(cause).toMatchObject({
      sha256: fingerprint,
      subject: expect.stringContaining('CN=field-kit-test'),
    });
    expect(seenAuthorization.length).toBe(before);
  });

  it('accepts the certificate whose fingerprint the profile pinned', async () => {
    const serverFetch = createServerFetch({ pinnedSha256: fingerprint.replace(/:/g, '').toLowerCase() });
    const response = await serverFetch(`${baseUrl}/api/auth/login`, { method: 'POST', body: '{"a":1}' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ method: 'POST', body: '{"a":1}' });
  });

  it('refuses a certificate that differs from the pinned one', async () => {
    const serverFetch = createServerFetch({ pinnedSha256: 'AB'.repeat(32) });
    const error = await serverFetch(`${baseUrl}/`).catch((caught: unknown) => caught);
    expect((error as TypeError).cause).toBeInstanceOf(CertificateUntrustedError);
  });
});
