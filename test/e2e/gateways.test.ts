import keytar from 'keytar';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedHost } from '../../electron/host';
import type { ServerSessionPort } from '../../electron/app';
import { CREDENTIAL_SERVICE } from '../../electron/services/credentials';
import { GATEWAY_SORT_FIELDS, type Gateway } from '../../electron/shared/api';
import { startSimulator, type RunningSimulator } from '../../simulator';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { TcpRelay } from '../helpers/tcp-relay';
import { startDemoHost, type DemoHost } from './support/journey';
import { signIn } from './support/login-page';
import { ownKeychain } from './support/own-keychain';

// The gateways view against the simulator through the browser host, as a provider user. The simulator sits
// behind a TCP relay on loopback: stopping the relay makes the server unreachable without losing the
// simulator's state (its token secret lives only as long as the process), and restarting it on the same port
// brings the same server back.

const COLUMN_OF: Record<(typeof GATEWAY_SORT_FIELDS)[number], string> = {
  CREATED_TIME: 'Created',
  NAME: 'Name',
  GATEWAY_MAC: 'MAC',
  GATEWAY_MODEL_NAME: 'Model',
  IS_PUBLIC: 'Public',
  IS_LOGGING_ENABLED: 'Logging',
  IS_UDP_ALLOWED: 'UDP',
  IS_NOT_MQTTS_ALLOWED: 'Non-MQTTS',
  STATUS: 'Status',
};
const ROWS_COMPARED = 10;

let simulator: RunningSimulator;
let relay: TcpRelay;
let demoHost: DemoHost;
let host: StartedHost;
let browser: BrowserSession;
let page: Page;
const sentFrames: string[] = [];

beforeAll(async () => {
  await keytar.findCredentials(CREDENTIAL_SERVICE).catch((error: unknown) => {
    throw new Error(
      `No Secret Service keyring answered (${String(error)}): run under ` +
        '`dbus-run-session -- bash scripts/with-keyring.sh npx vitest run test/e2e/gateways.test.ts`.',
    );
  });
  simulator = await startSimulator({ port: 0, commandTimeoutMs: 3000 });
  relay = new TcpRelay(Number(new URL(simulator.url).port));
  await relay.start();
  demoHost = await startDemoHost(simulator, {
    baseUrl: `http://127.0.0.1:${relay.port}`,
    credentials: ownKeychain(),
  });
  host = demoHost.host;
  browser = await launchBrowser();
  page = browser.page;
  page.on('websocket', (socket) => socket.on('framesent', ({ payload }) => sentFrames.push(String(payload))));
  const provider = simulator.fixture.accounts.find((account) => account.role === 'PROVIDER_USER');
  if (!provider) throw new Error('the demo tenant has no provider user');
  await signIn(page, host.url, `Use ${provider.username} (${provider.role})`, { remember: false });
  await page.getByRole('heading', { name: 'Gateways', level: 1 }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await demoHost?.close();
  await relay?.stop();
  await simulator?.close();
  await keytar
    .findCredentials(CREDENTIAL_SERVICE)
    .then((entries) =>
      Promise.all(entries.map((entry) => keytar.deletePassword(CREDENTIAL_SERVICE, entry.account))),
    );
});

/** The API's own answer, asked by the test through the signed-in session. */
async function listFromApi(query: Record<string, unknown>): Promise<Gateway[]> {
  const providerId = host.services.sessions.summary()?.providerId ?? '';
  const answer = (await host.services.sessions
    .requireSession()
    .call('listProviderGateways', { params: { providerId }, query: { limit: 100, page: 0, ...query } })) as {
    data: Gateway[];
  };
  return answer.data;
}

/** The names in the first rows of the table, in row order, once every one of them is loaded. */
function readRowNames(count: number): Promise<string[]> {
  return page.evaluate((wanted) => {
    const rows = [...document.querySelectorAll<HTMLElement>('[data-row-index]')]
      .map((row) => ({
        index: Number(row.dataset.rowIndex),
        name: row.querySelector('a')?.textContent ?? '',
      }))
      .sort((left, right) => left.index - right.index);
    return rows.slice(0, wanted).map((row) => row.name);
  }, count);
}

async function expectRows(expected: string[]): Promise<void> {
  await expect.poll(() => readRowNames(expected.length), { timeout: 10_000 }).toEqual(expected);
}

function gatewaysTable() {
  return page.getByRole('table', { name: 'Gateways' });
}

describe('gateways list', () => {
  it('pages and sorts by each of the nine fields in both directions as the server does', async () => {
    // The record's date and the API's flags are behind the column chooser: show them all.
    await page.getByRole('button', { name: 'Columns' }).click();
    for (const label of ['Created', 'Public', 'Logging', 'UDP', 'Non-MQTTS']) {
      await page.getByRole('checkbox', { name: new RegExp(`^${label} API: `) }).check();
    }
    await page.keyboard.press('Escape');
    await expectRows(
      (await listFromApi({ sortField: 'NAME', sortDirection: 'ASC' }))
        .slice(0, ROWS_COMPARED)
        .map((g) => g.name),
    );
    for (const field of GATEWAY_SORT_FIELDS) {
      const header = gatewaysTable().getByRole('columnheader', { name: COLUMN_OF[field] });
      for (let click = 0; click < 2; click++) {
        await header.getByRole('button').click();
        const sort = await header.getAttribute('aria-sort');
        const direction = sort === 'ascending' ? 'ASC' : 'DESC';
        const expected = await listFromApi({ sortField: field, sortDirection: direction });
        await expectRows(expected.slice(0, ROWS_COMPARED).map((gateway) => gateway.name));
      }
      expect(['ascending', 'descending']).toContain(await header.getAttribute('aria-sort'));
    }
  });

  it('sends the search text to the server and shows only what it answers', async () => {
    const target = (await listFromApi({ sortField: 'NAME', sortDirection: 'ASC' }))[3] as Gateway;
    const fragment = target.gatewayMac.slice(-5);
    await page.getByRole('searchbox', { name: 'Search by name or MAC' }).fill(fragment);
    const expected = await listFromApi({ sortField: 'NAME', sortDirection: 'ASC', textSearch: fragment });
    await expectRows(expected.map((gateway) => gateway.name));
    expect(sentFrames.some((frame) => frame.includes(`"textSearch":"${fragment}"`))).toBe(true);
    await page.getByRole('searchbox', { name: 'Search by name or MAC' }).fill('');
    await expect.poll(() => readRowNames(2).then((names) => names.length)).toBe(2);
  });
});

const SCOPE_QUERY = { limit: 100, page: 0, sortField: 'NAME', sortDirection: 'ASC' } as const;

describe('gateway list scopes', () => {
  /** The first rows of a list read straight from the API through the signed-in session. */
  async function rowsFromApi(
    read: (session: ServerSessionPort) => Promise<{ data: Gateway[] }>,
  ): Promise<string[]> {
    const answer = await read(host.services.sessions.requireSession());
    return answer.data.slice(0, ROWS_COMPARED).map((gateway) => gateway.name);
  }

  async function sortByNameAscending(): Promise<void> {
    const header = gatewaysTable().getByRole('columnheader', { name: 'Name' });
    for (let click = 0; click < 2 && (await header.getAttribute('aria-sort')) !== 'ascending'; click++) {
      await header.getByRole('button').click();
    }
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
  }

  it("lists a customer's gateways when a customer is picked, the customer named as the server names it", async () => {
    await sortByNameAscending();
    const customer = simulator.fixture.customers[1];
    if (!customer) throw new Error('the demo tenant needs two customers');
    await page.getByRole('combobox', { name: 'Show gateways of' }).selectOption('customer');
    const picker = page.getByRole('combobox', { name: 'Customer', exact: true });
    await expect
      .poll(() => picker.locator(`option[value="${customer.id}"]`).textContent())
      .toBe(customer.name);
    await picker.selectOption(customer.id);
    await expectRows(
      await rowsFromApi((session) =>
        session.call('listCustomerGateways', { params: { customerId: customer.id }, query: SCOPE_QUERY }),
      ),
    );
    expect(
      sentFrames.some((frame) => frame.includes('listCustomerGateways') && frame.includes(customer.id)),
    ).toBe(true);
  });

  it("lists a gateway group's gateways when a group seen on the list is picked", async () => {
    await sortByNameAscending();
    const groupId = simulator.fixture.gateways[0]?.gatewayGroupId ?? '';
    await page.getByRole('combobox', { name: 'Show gateways of' }).selectOption('group');
    await page.getByRole('combobox', { name: 'Gateway group' }).selectOption(groupId);
    await expectRows(
      await rowsFromApi((session) =>
        session.call('listGatewayGroupGateways', { params: { gatewayGroupId: groupId }, query: SCOPE_QUERY }),
      ),
    );
    await page.getByRole('combobox', { name: 'Show gateways of' }).selectOption('provider');
    await expectRows(
      await rowsFromApi((session) =>
        session.call('listProviderGateways', {
          params: { providerId: simulator.fixture.providerId },
          query: SCOPE_QUERY,
        }),
      ),
    );
  });
});

describe('gateway page and command console', () => {
  async function openGateway(gateway: Gateway): Promise<void> {
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), gateway.id.id);
    await page.getByRole('heading', { name: gateway.name, level: 2 }).waitFor();
  }

  // A command's button reads as what it does, then its API name ("Read PDP profiles getWmPDP_Profiles").
  async function chooseCommand(name: string): Promise<void> {
    await page
      .getByRole('navigation', { name: 'Commands' })
      .getByRole('button', { name: new RegExp(` ${name}$`) })
      .click();
    await page.getByRole('heading', { name, level: 3 }).waitFor();
  }

  it('lists commands by what they do and finds one by its API name', async () => {
    const [gateway] = (await listFromApi({ sortField: 'NAME', sortDirection: 'ASC' })).filter(
      (candidate) => candidate.status === 'ONLINE',
    );
    if (!gateway) throw new Error('no online gateway in the demo tenant');
    await openGateway(gateway);
    const catalogue = page.getByRole('navigation', { name: 'Commands' });
    const shown = async () =>
      (await catalogue.getByRole('button').allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
    await catalogue.getByLabel('Find a command').fill('pdp');
    expect(await shown()).toEqual([
      'Read PDP profiles getWmPDP_Profiles',
      'Change PDP profiles modifyWmPDP_Profiles',
    ]);
    await catalogue.getByLabel('Find a command').fill('getwmpdp');
    expect(await shown()).toEqual(['Read PDP profiles getWmPDP_Profiles']);
    await catalogue.getByLabel('Find a command').fill('');
  });

  it('labels the form fields in words, with the API name as a hint', async () => {
    const [gateway] = (await listFromApi({ sortField: 'NAME', sortDirection: 'ASC' })).filter(
      (candidate) => candidate.status === 'ONLINE',
    );
    if (!gateway) throw new Error('no online gateway in the demo tenant');
    await openGateway(gateway);
    await chooseCommand('setFirewallConfiguration');
    const form = page.getByRole('form', { name: 'Run “Replace the firewall settings”' });
    const perMinute = form.getByRole('group', { name: /^DoS prevention/ }).getByLabel('Limit per minute');
    await perMinute.waitFor();
    // The hint is the field's accessible description: a screen reader says it after the label.
    const description = await perMinute.evaluate((input) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => document.getElementById(id)?.textContent ?? '')
        .join(' '),
    );
    expect(description).toContain('API: perMinLimit');
    expect(await form.getByLabel('perMinLimit', { exact: true }).count()).toBe(0);
  });

  it('shows an answer of known shape as a table and an unknown one as a JSON tree', async () => {
    const [gateway] = (await listFromApi({ sortField: 'NAME', sortDirection: 'ASC' })).filter(
      (candidate) => candidate.status === 'ONLINE',
    );
    if (!gateway) throw new Error('no online gateway in the demo tenant');
    await openGateway(gateway);
    await chooseCommand('getAntennasCount');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const table = page.getByRole('table', { name: 'Answer of “Count the antennas”' });
    await table.waitFor();
    expect(await table.getByRole('cell', { name: 'antennasCount' }).count()).toBe(1);

    await chooseCommand('getGpsCoordinates');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await page.getByRole('group', { name: 'Answer of “Read the GPS position”' }).waitFor();
  });

  it('asks before a disruptive command: cancel sends nothing, confirm runs it', async () => {
    const gateways = (await listFromApi({ sortField: 'NAME', sortDirection: 'ASC' })).filter(
      (candidate) => candidate.status === 'ONLINE',
    );
    const gateway = gateways[1];
    if (!gateway) throw new Error('the demo tenant needs two online gateways');
    await openGateway(gateway);
    await chooseCommand('reboot');
    const isRebootSent = () => sentFrames.some((frame) => frame.includes('"command":"reboot"'));

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Run “Restart the gateway”?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('The gateway restarts and is offline for a few minutes');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(isRebootSent()).toBe(false);

    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await dialog.getByRole('button', { name: 'Run “Restart the gateway” now' }).click();
    await page.getByText(/“Restart the gateway” answered in \d+ ms/).waitFor();
    expect(isRebootSent()).toBe(true);
    const audit = await host.services.audit.read({
      profileId: host.services.sessions.summary()?.profileId ?? '',
    });
    expect(audit.filter((entry) => entry.name === 'reboot')).toMatchObject([
      { gatewayId: gateway.id.id, risk: 'disruptive', outcome: 'ok' },
    ]);
  });
});

describe('gateway page and command console, continued', () => {
  it('explains in words a command the restarting gateway does not answer', async () => {
    await page
      .getByRole('navigation', { name: 'Commands' })
      .getByRole('button', { name: 'getAntennasCount' })
      .click();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'did not answer “Count the antennas” in time' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('it may be restarting or offline');
  });

  it("refuses a form that breaks the command's rules with the message next to the field, sending nothing", async () => {
    await page
      .getByRole('navigation', { name: 'Commands' })
      .getByRole('button', { name: 'Ping a host ping', exact: true })
      .click();
    const sentBefore = sentFrames.length;
    await page.getByRole('textbox', { name: 'Packets count' }).fill('0');
    await page.getByRole('textbox', { name: 'Destination' }).fill('8.8.8.8');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const field = page.getByRole('textbox', { name: 'Packets count' });
    await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${describedBy.split(' ').at(-1)}"]`).textContent()).toBe(
      'Packets count must be at least 1',
    );
    expect(sentFrames.slice(sentBefore).some((frame) => frame.includes('"command":"ping"'))).toBe(false);
  });
});

describe('gateway page links', () => {
  it("links to this gateway's wizards, diagnostics and terminal, and each link opens its page", async () => {
    const [gateway] = await listFromApi({ sortField: 'NAME', sortDirection: 'ASC' });
    if (!gateway) throw new Error('no gateway in the demo tenant');
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), gateway.id.id);
    const tools = page.getByRole('region', { name: 'Tools' });
    await tools.waitFor();
    const id = encodeURIComponent(gateway.id.id);
    expect(await tools.getByRole('link', { name: 'Firewall' }).getAttribute('href')).toBe(
      `#/gateways/${id}/wizard/firewall`,
    );
    expect(await tools.getByRole('link', { name: 'Diagnostics' }).getAttribute('href')).toBe(
      `#/gateways/${id}/diagnostics`,
    );
    expect(await tools.getByRole('link', { name: /Terminal on this gateway/ }).getAttribute('href')).toBe(
      `#/terminals/reverse/${id}`,
    );
    await tools.getByRole('link', { name: 'Diagnostics' }).click();
    await page.getByRole('link', { name: '← Back to the gateway' }).click();
    await page.getByRole('heading', { name: gateway.name, level: 2 }).waitFor();
  });
});

describe('offline copy', () => {
  it('shows the cached list read-only while the server is unreachable and live data once it returns', async () => {
    await page.evaluate(() => (location.hash = '#/gateways'));
    const expected = (await listFromApi({ sortField: 'NAME', sortDirection: 'ASC' })).slice(0, ROWS_COMPARED);
    await expectRows(expected.map((gateway) => gateway.name));
    const first = expected[0] as Gateway;

    await relay.stop();
    await page.evaluate((id) => (location.hash = `#/gateways/${id}`), first.id.id);
    const banner = page.getByRole('status', { name: 'Offline copy' });
    await banner.waitFor();
    expect(await page.getByRole('button', { name: 'Run', exact: true }).isDisabled()).toBe(true);
    await page.evaluate(() => (location.hash = '#/gateways'));
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/Offline — showing these gateways as of/);
    await expectRows(expected.map((gateway) => gateway.name));

    await relay.start();
    await banner.waitFor({ state: 'hidden', timeout: 20_000 });
    await expectRows(expected.map((gateway) => gateway.name));
  });
});
