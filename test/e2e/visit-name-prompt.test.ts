import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHost, type StartedHost } from '../../electron/host/start-host';
import { MemoryStore } from '../../electron/services/credentials';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { startSocatPair, type SocatPair } from '../helpers/socat';
import { ensureRendererBuilt } from './support/renderer-build';

// A visit opened by the first action, in field mode with no visit started: the serial console opened in the
// Terminals view is recorded in a visit the app starts for it, and the header asks to name that visit.

const SILENT_LOG = { info: () => undefined, error: () => undefined };

let dataDir: string;
let host: StartedHost;
let browser: BrowserSession;
let port: SocatPair;

beforeAll(async () => {
  const rendererDir = await ensureRendererBuilt();
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-e2e-visit-prompt-'));
  port = await startSocatPair();
  host = await startHost({
    dataDir,
    rendererDir,
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    log: SILENT_LOG,
  });
  browser = await launchBrowser();
  await browser.page.setViewportSize({ width: 1280, height: 720 });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await port?.cleanup();
  await rm(dataDir, { recursive: true, force: true });
});

describe('the visit the first action started', () => {
  it('is recorded at once and named from the header, wherever the work happens', async () => {
    const { page } = browser;
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Work without signing in' }).click();
    await page.getByRole('link', { name: 'Terminals' }).click();
    expect(await page.getByRole('button', { name: 'Name this visit' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Serial console' }).click();
    const dialog = page.getByRole('dialog', { name: 'Serial console' });
    await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Type a path…' });
    await dialog.getByLabel('Path', { exact: true }).fill(port.pathA);
    await dialog.getByLabel('Gateway (names the tab and the log file)').fill('roof box');
    await dialog.getByRole('button', { name: 'Connect' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Asked in the header, not by a dialog that would take the keys typed into the terminal.
    await page.getByRole('button', { name: 'Name this visit' }).click();
    const prompt = page.getByRole('dialog', { name: 'Name the visit' });
    await prompt.waitFor();
    expect((await prompt.textContent())?.replace(/\s+/g, ' ')).toMatch(
      /Your first action started a visit at .+, so that everything you do is recorded\./,
    );
    expect(host.services.visits.current()).toMatchObject({ implicit: true, isOpen: true });
    await prompt.getByLabel('Site of this visit').fill('South mast');
    await prompt.getByRole('button', { name: 'Name the visit' }).click();
    await prompt.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Name this visit' }).count()).toBe(0);
    expect(host.services.visits.current()).toMatchObject({
      site: 'South mast',
      implicit: true,
      isOpen: true,
    });
  }, 120_000);
});
