import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openReverseTerminal,
  startTerminalRig,
  waitForTerminalText,
  type TerminalRig,
} from '../bench/terminal-rig';
import { signIn } from './support/login-page';

// One account's live shells never reach the next: tech@acme.demo opens reverse SSH to one of Acme's gateways and
// signs out; ops@globex.demo then signs in on the same app and finds no terminal, neither on the page nor in main.

let rig: TerminalRig;
let page: Page;
let gateway: { id: string; name: string; rootPassword: string };

beforeAll(async () => {
  rig = await startTerminalRig();
  page = rig.page;
  await page.setViewportSize({ width: 1280, height: 720 });
  const fixture = rig.simulator!.fixture;
  const tech = fixture.accounts.find((account) => account.username === 'tech@acme.demo')!;
  gateway = fixture.gateways.find(
    (candidate) => candidate.customerId === tech.customerId && candidate.initialStatus === 'ONLINE',
  )!;
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

async function openTerminals(): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Terminals' }).click();
  await page.getByRole('heading', { name: 'Terminals', level: 1 }).waitFor();
}

describe('signing out with a reverse SSH terminal open, then signing in as another account', () => {
  it('asks first, naming the reverse SSH terminal that sign-out closes', async () => {
    await signIn(page, rig.url, /^Use tech@acme\.demo/);
    await openTerminals();
    await openReverseTerminal(page, gateway.id, gateway.rootPassword);
    await waitForTerminalText(page, `root@${gateway.name}:~#`);

    await page.getByRole('button', { name: 'Sign out' }).click();
    const question = page.getByRole('dialog', { name: 'Sign out with terminals open?' });
    expect(await question.textContent()).toContain(
      `1 terminal is open: reverse SSH to ${gateway.name}. Signing out closes it`,
    );
    await question.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: /^Use ops@globex\.demo/ }).waitFor();
  }, 150_000);

  it("shows the next account no terminal of the previous one's, live or closed", async () => {
    await page.getByRole('button', { name: /^Use ops@globex\.demo/ }).click();
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByRole('region', { name: 'Session' }).textContent()).toContain('ops@globex.demo');
    await openTerminals();

    await page.getByText('No terminal is open.').waitFor();
    expect(await page.getByTestId('terminal-state').count()).toBe(0);
    expect(await page.locator('.xterm').count()).toBe(0);
  }, 60_000);

  it('lists no terminal after a reload either: main closed it', async () => {
    await page.reload();
    await page.getByRole('heading', { name: 'Terminals', level: 1 }).waitFor();
    await page.getByText('No terminal is open.').waitFor();
    expect(await page.getByText(gateway.name).count()).toBe(0);
  }, 60_000);

  it('reports no page error', () => {
    expect(rig.pageErrors).toEqual([]);
  });
});
