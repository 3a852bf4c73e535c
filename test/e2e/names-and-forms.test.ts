import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMac } from '../../electron/shared/mac';
import type { RunningSimulator } from '../../simulator';
import { healthyGateway } from '../integration/commissioning/simulator-session';
import { SHORT_TIMINGS, startCommissioningApp, type CommissioningApp } from './wizards-harness';

// Finding a gateway by the MAC on its label, gateways named by name and MAC wherever they appear, and forms that say what is wrong at the field as soon as it is left:
// the bad inputs a technician met (issue 21), each with the message expected next to its field.

let app: CommissioningApp;
let simulator: RunningSimulator;
let page: Page;

beforeAll(async () => {
  app = await startCommissioningApp(SHORT_TIMINGS);
  simulator = app.host.simulator!;
  page = app.page;
}, 120_000);

afterAll(async () => {
  await app?.close();
});

/** The text tied to a field through aria-describedby: its hint and its error, as a screen reader reads them. */
async function describedText(label: string): Promise<string> {
  const field = page.getByLabel(label, { exact: true });
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
  return texts.join(' ');
}

describe('search by MAC', () => {
  it('finds the gateway in the list by its MAC typed with colons in lower case', async () => {
    const gateway = healthyGateway(simulator, 6);
    const typed = formatMac(gateway.gatewayMac).toLowerCase();
    expect(typed).toMatch(/^([0-9a-f]{2}:){7}[0-9a-f]{2}$/);
    await page.goto(`${app.baseUrl}#/gateways`);
    await page.getByText('40 gateways', { exact: true }).waitFor();
    await page.getByLabel('Search by name or MAC').fill(typed);
    await page.getByText('1 gateway', { exact: true }).waitFor();
    await page.getByRole('link', { name: gateway.name, exact: true }).waitFor();
    expect(await page.getByText(formatMac(gateway.gatewayMac), { exact: true }).count()).toBe(1);
  });

  it('finds the gateway to commission by its MAC typed with hyphens', async () => {
    const gateway = healthyGateway(simulator, 7);
    await app.open([]);
    await page
      .getByLabel('Gateway', { exact: true })
      .fill(formatMac(gateway.gatewayMac).replaceAll(':', '-'));
    const matches = page.getByRole('list', { name: 'Matching gateways' });
    await matches.getByRole('button', { name: new RegExp(`^${gateway.name} `) }).waitFor();
  });
});

describe('gateways named with their MAC', () => {
  it('names the gateway in the wizards header and the reboot confirmation when opened by its address', async () => {
    const gateway = healthyGateway(simulator, 9);
    const mac = formatMac(gateway.gatewayMac);
    await app.open([gateway.id, 'diagnostics']);
    // A fresh load: no list has shown the gateway, so its name comes from a lookup by id.
    await page.reload();
    const header = page.getByText(mac, { exact: true });
    await header.waitFor();
    expect(await page.getByRole('button', { name: `Copy ID of ${gateway.name}` }).count()).toBe(1);
    expect(await page.getByRole('link', { name: `← Gateway ${gateway.name}` }).count()).toBe(1);
    expect(await page.getByText(gateway.id, { exact: true }).count()).toBe(0);
    await page.getByRole('button', { name: 'Reboot the gateway' }).click();
    const dialog = page.getByRole('dialog', { name: `Reboot ${gateway.name} (${mac})?` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('names the gateway in the terminal dialog opened for it by address', async () => {
    const gateway = healthyGateway(simulator, 9);
    await page.goto(`${app.baseUrl}#/terminals/reverse/${gateway.id}`);
    await page.reload();
    const field = page.getByRole('dialog').getByLabel('Gateway', { exact: true });
    await expect.poll(() => field.inputValue(), { timeout: 10_000 }).toBe(gateway.name);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  });

  it("lists the visit's gateways by name and MAC in the site report, to pick from", async () => {
    const gateway = healthyGateway(simulator, 9);
    await app.open([gateway.id, 'wizard', 'backups']);
    await page.getByLabel('Backup description').fill('before the names check');
    await page.getByRole('button', { name: 'Create a backup' }).click();
    await page.getByText('Backup "before the names check" created.').waitFor();
    await app.open(['report']);
    await page.reload();
    const label = `${gateway.name} · ${formatMac(gateway.gatewayMac)}`;
    const picker = page.getByRole('group', { name: 'Only these gateways' });
    await picker.getByRole('checkbox', { name: label }).waitFor();
    const entries = page.getByRole('table', { name: 'Visit entries' });
    expect(await entries.getByRole('cell', { name: label, exact: true }).count()).toBeGreaterThan(0);
    expect(await entries.getByRole('cell', { name: gateway.id, exact: true }).count()).toBe(0);
  });
});

/** A bad input: where it is typed, what, and the message expected at the field once it is left. */
interface BadInput {
  path: (gatewayId: string) => string[];
  /** A collapsed section to open before typing (the JSON view). */
  open?: string;
  field: string;
  value: string;
  message: string;
}

const BAD_INPUTS: BadInput[] = [
  {
    path: (id) => [id, 'wizard', 'firewall'],
    field: 'DoS burst limit',
    value: '99999999999999999999',
    message: '99999999999999999999 is out of range: allowed from 0 to 2,147,483,647.',
  },
  {
    path: (id) => [id, 'wizard', 'firewall'],
    field: 'DoS limit per minute',
    value: '-5',
    message: '-5 is out of range: allowed from 0 to 2,147,483,647.',
  },
  {
    path: (id) => [id, 'wizard', 'firewall'],
    field: 'Pings per minute',
    value: '',
    message: 'Required: a whole number from 0 to 2,147,483,647.',
  },
  {
    path: (id) => [id, 'wizard', 'firewall'],
    field: 'Ping burst',
    value: '2.5',
    message: '“2.5” is not a whole number: enter one from 0 to 2,147,483,647.',
  },
  {
    path: (id) => [id, 'wizard', 'firewall'],
    open: 'Edit the filters as JSON',
    field: 'Filters (JSON list)',
    value: '{',
    message: 'Not valid JSON',
  },
  {
    path: (id) => [id, 'wizard', 'connectivity'],
    field: 'Ping target',
    value: '8.8.8',
    message: '“8.8.8” is not an IP address',
  },
  {
    path: (id) => [id, 'wizard', 'connectivity'],
    field: 'Ping target',
    value: '',
    message: 'Required: the IPv4 or IPv6 address',
  },
  {
    path: (id) => [id, 'wizard', 'backups'],
    field: 'Backup description',
    value: 'd'.repeat(200),
    message: 'Too long: 200 characters, at most 128 allowed (remove 72).',
  },
  {
    path: (id) => [id, 'wizard', 'backups'],
    field: 'Backup description',
    value: 'd'.repeat(129),
    message: 'Too long: 129 characters, at most 128 allowed (remove 1).',
  },
  {
    path: (id) => [id, 'diagnostics'],
    field: 'Packets',
    value: '101',
    message: '101 is out of range: allowed from 1 to 100.',
  },
  {
    path: (id) => [id, 'diagnostics'],
    field: 'Destination',
    value: 'http://example.test/',
    message: '“http://example.test/” is not a host name or IP address.',
  },
];

describe('bad inputs get their message at their field', () => {
  it.each(BAD_INPUTS)('$field = “$value” says “$message” once the field is left', async (input) => {
    const gateway = healthyGateway(simulator, 8);
    await app.open(input.path(gateway.id));
    if (input.open) await page.getByText(input.open, { exact: true }).click();
    const field = page.getByLabel(input.field, { exact: true });
    await field.fill(input.value);
    expect(await describedText(input.field)).not.toContain(input.message);
    await field.press('Tab');
    await expect.poll(() => describedText(input.field)).toContain(input.message);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    // What was typed stays as typed: nothing cut, nothing rounded.
    expect(await field.inputValue()).toBe(input.value);
  });
});

describe('nothing reaches Review that Review would refuse', () => {
  it('keeps an out-of-range firewall limit on the form with the message at its field', async () => {
    const gateway = healthyGateway(simulator, 8);
    await app.open([gateway.id, 'wizard', 'firewall']);
    await page.getByLabel('DoS burst limit').fill('99999999999999999999');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByText('One field needs correcting: see above.').waitFor();
    expect(await page.getByRole('heading', { name: 'What will change' }).count()).toBe(0);
    expect(await describedText('DoS burst limit')).toContain('out of range');
  });

  it('keeps an invalid ping target on the form', async () => {
    const gateway = healthyGateway(simulator, 8);
    await app.open([gateway.id, 'wizard', 'connectivity']);
    await page.getByLabel('Ping target').fill('not-an-address');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByText('The ping target needs correcting: see above.').waitFor();
    expect(await page.getByRole('heading', { name: 'What will change' }).count()).toBe(0);
    expect(await describedText('Ping target')).toContain('is not an IP address');
  });

  it('says an empty backup description is required when Create is pressed', async () => {
    const gateway = healthyGateway(simulator, 8);
    await app.open([gateway.id, 'wizard', 'backups']);
    await page.getByRole('button', { name: 'Create a backup' }).click();
    await expect.poll(() => describedText('Backup description')).toContain('Required: enter a description');
  });

  it('empties the description once the backup is made, without calling the empty field an error', async () => {
    const gateway = healthyGateway(simulator, 10);
    await app.open([gateway.id, 'wizard', 'backups']);
    await page.getByLabel('Backup description').fill('after the cable check');
    await page.getByRole('button', { name: 'Create a backup' }).click();
    await page.getByText('Backup "after the cable check" created.').waitFor();
    expect(await page.getByLabel('Backup description').inputValue()).toBe('');
    expect(await describedText('Backup description')).toBe('0 / 128 characters');
  });

  it('counts the description while typing', async () => {
    const gateway = healthyGateway(simulator, 8);
    await app.open([gateway.id, 'wizard', 'backups']);
    await page.getByLabel('Backup description').fill('before the antenna swap');
    expect(await describedText('Backup description')).toContain('23 / 128 characters');
  });
});
