import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createAppProtocolHandler } from '../../../electron/main/protocol';

let folder: string;
let handle: (request: Request) => Promise<Response>;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-protocol-'));
  await mkdir(join(folder, 'renderer', 'assets'), { recursive: true });
  await writeFile(join(folder, 'renderer', 'index.html'), '<!doctype html><title>Kit</title>');
  await writeFile(join(folder, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(folder, 'secret.txt'), 'outside');
  handle = createAppProtocolHandler(join(folder, 'renderer'));
});
afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('app:// protocol', () => {
  it('serves index.html with the strict CSP', async () => {
    const response = await handle(new Request('app://fieldkit/index.html'));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Kit</title>');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('serves assets with their content type', async () => {
    const response = await handle(new Request('app://fieldkit/assets/app.js'));
    expect(response.headers.get('content-type')).toMatch(/javascript/);
  });

  it('answers index.html for a client-side route', async () => {
    const response = await handle(new Request('app://fieldkit/gateways'));
    expect(await response.text()).toContain('<title>Kit</title>');
  });

  it('refuses a path that leaves the renderer folder', async () => {
    const response = await handle(new Request('app://fieldkit/..%2fsecret.txt'));
    expect(response.status).toBe(404);
  });

  it('refuses another host of the scheme', async () => {
    const response = await handle(new Request('app://elsewhere/index.html'));
    expect(response.status).toBe(404);
  });
});
