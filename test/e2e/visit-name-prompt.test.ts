import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalHost, type LocalHostRig } from './support/local-host';
import { startSocatPair, type SocatPair } from '../helpers/socat';

// A visit opened by the first action, in field mode with no visit started: the serial console opened in the
// Terminals view is recorded in a visit the app starts for it, and the header asks to name that visit.

let rig: LocalHostRig;
let port: SocatPair;

beforeAll(async () => {
  port = await startSocatPair();
  rig = await startLocalHost('visit-prompt');
}, 120_000);

afterAll(async () => {
  await rig?.close();
  await port?.cleanup();
});

describe('the visit the first action started', () => {
  it('is recorded at once and named from the header, wherever the work happens', async () => {
    const { page } = rig.browser;
    await page.goto(rig.host.url);
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
    expect(rig.host.services.visits.current()).toMatchObject({ implicit: true, isOpen: true });
    await prompt.getByLabel('Site of this visit').fill('South mast');
    await prompt.getByRole('button', { name: 'Name the visit' }).click();
    await prompt.waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: 'Name this visit' }).count()).toBe(0);
    expect(rig.host.services.visits.current()).toMatchObject({
      site: 'South mast',
      implicit: true,
      isOpen: true,
    });
  }, 120_000);
});
