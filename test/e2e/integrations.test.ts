import keytar from 'keytar';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartedHost } from '../../electron/host';
import { CREDENTIAL_SERVICE } from '../../electron/services/credentials';
import { startSimulator, type RunningSimulator } from '../../simulator';
import { launchBrowser, type BrowserSession } from '../helpers/browser';
import { startMosquitto, type MosquittoBroker } from '../helpers/mosquitto';
import { startDemoHost, type DemoHost } from './support/journey';
import { signIn } from './support/login-page';
import { ownKeychain } from './support/own-keychain';

// Parts 5, 6 and 7 of issue 4 in Chromium through the browser host and the simulator, signed in as a customer
// user: each form refuses each rule's violation with a message next to the field, the laptop test talks to a real
// Mosquitto, the NbTrans editor refuses min > max, the diff shows before the POST, token lifetimes round-trip.

const ACCOUNT = 'tech@acme.demo';
const BROKER_USER = { username: 'field-kit', password: 'broker-pass-1' };

let simulator: RunningSimulator;
let demoHost: DemoHost;
let host: StartedHost;
let browser: BrowserSession;
let broker: MosquittoBroker;
let page: Page;
let ids: { applicationId: string; converterV2: string; converterV1: string; customerId: string };

beforeAll(async () => {
  [simulator, broker] = await Promise.all([
    startSimulator({ port: 0 }),
    startMosquitto({ user: BROKER_USER }),
  ]);
  demoHost = await startDemoHost(simulator, { credentials: ownKeychain() });
  host = demoHost.host;
  const account = simulator.fixture.accounts.find((candidate) => candidate.username === ACCOUNT);
  const customerId = account?.customerId ?? '';
  const application = [...simulator.world.tenant.applications.values()].find(
    (candidate) => candidate.customerId === customerId,
  );
  ids = {
    applicationId: application?.id ?? '',
    converterV2: simulator.fixture.converters.find((converter) => converter.version === 2)?.id ?? '',
    converterV1: simulator.fixture.converters.find((converter) => converter.version === 1)?.id ?? '',
    customerId,
  };
  browser = await launchBrowser();
  page = browser.page;
  await signIn(page, host.url, new RegExp(`^Use ${ACCOUNT.replace('.', '\\.')}`));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await demoHost?.close();
  await simulator?.close();
  await broker?.stop();
  await keytar
    .findCredentials(CREDENTIAL_SERVICE)
    .then((entries) =>
      Promise.all(entries.map((entry) => keytar.deletePassword(CREDENTIAL_SERVICE, entry.account))),
    )
    .catch(() => undefined);
});

/** The text of everything a control's aria-describedby points at: its hint and its error message. */
function descriptionOf(control: Locator): Promise<string> {
  return control.evaluate((element) =>
    (element.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
}

async function openArea(path: string, heading: string): Promise<void> {
  // A fresh page each time: a change of the hash alone would keep the last test's form.
  await page.goto('about:blank');
  await page.goto(`${new URL(host.url).origin}/#/integrations${path}`);
  await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
}

async function fillValidMqtt(): Promise<void> {
  await page.getByRole('combobox', { name: 'Type' }).selectOption('MQTT_V2');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Roof uplinks');
  await page.getByRole('combobox', { name: 'Application id' }).fill(ids.applicationId);
  await page.getByRole('combobox', { name: 'Converter id (version 2)' }).fill(ids.converterV2);
  await page.getByRole('textbox', { name: 'Broker host' }).fill('127.0.0.1');
  await page.getByRole('textbox', { name: 'Broker port' }).fill(String(broker.port));
  await page.getByRole('textbox', { name: 'Token (user name)' }).fill(BROKER_USER.username);
  await page.getByLabel('Password', { exact: true }).fill(BROKER_USER.password);
  await page.getByRole('textbox', { name: 'Push topic' }).fill('site/uplinks');
}

async function fillValidHttp(): Promise<void> {
  await page.getByRole('combobox', { name: 'Type' }).selectOption('HTTP_V2');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Roof webhook');
  await page.getByRole('combobox', { name: 'Application id' }).fill(ids.applicationId);
  await page.getByRole('combobox', { name: 'Converter id (version 2)' }).fill(ids.converterV2);
  await page.getByRole('textbox', { name: 'Server URL' }).fill('http://127.0.0.1');
  await page.getByRole('textbox', { name: 'Server port' }).fill('8080');
}

interface Violation {
  rule: string;
  field: string;
  bad: string;
  message: string;
  isAdvanced?: boolean;
  before?: () => Promise<void>;
}

const MQTT_VIOLATIONS: Violation[] = [
  { rule: 'name not empty', field: 'Name', bad: ' ', message: 'name must not be empty' },
  {
    rule: 'host without a port',
    field: 'Broker host',
    bad: 'broker.local:1883',
    message: 'a port is not allowed in host',
  },
  { rule: 'port 1 to 65535', field: 'Broker port', bad: '70000', message: 'must be a port from 1 to 65535' },
  {
    rule: 'connectionTimeoutS >= 1',
    field: 'Connection timeout',
    bad: '0',
    message: 'connectionTimeoutS must be at least 1',
  },
  {
    rule: 'keepAliveIntervalS >= 1',
    field: 'Keep-alive interval',
    bad: '0',
    message: 'keepAliveIntervalS must be at least 1',
  },
  {
    rule: 'pendingQueueMaxSize 1 to 10000',
    field: 'Pending queue max size',
    bad: '10001',
    message: 'must be 1 to 10000',
  },
  { rule: 'maxInflight 1 to 100', field: 'Max in flight', bad: '101', message: 'must be 1 to 100' },
  { rule: 'pushTopic not empty', field: 'Push topic', bad: '  ', message: 'pushTopic must not be empty' },
  {
    rule: 'clientId at most 23 characters for MQTT 3.1',
    field: 'Client id',
    bad: 'x'.repeat(24),
    message: 'clientId must be at most 23 characters for MQTT 3.1',
    isAdvanced: true,
    before: async () => {
      await page.getByRole('combobox', { name: 'MQTT version' }).selectOption('MQTT_VERSION_3_1');
    },
  },
  {
    rule: 'clientId at most 256 characters for MQTT 3.1.1',
    field: 'Client id',
    bad: 'x'.repeat(257),
    message: 'clientId must be at most 256 characters',
    isAdvanced: true,
    before: async () => {
      await page.getByRole('combobox', { name: 'MQTT version' }).selectOption('MQTT_VERSION_3_1_1');
    },
  },
  {
    rule: 'autoreconnectIntervalS >= 1',
    field: 'Auto-reconnect interval',
    bad: '0',
    message: 'autoreconnectIntervalS must be at least 1',
    isAdvanced: true,
  },
  {
    rule: 'pendingQueueOnErrorProcessingRetryIntervalS >= 1',
    field: 'Pending queue retry interval on error',
    bad: '0',
    message: 'pendingQueueOnErrorProcessingRetryIntervalS must be at least 1',
    isAdvanced: true,
  },
  {
    rule: 'CA certificate in PEM form',
    field: 'CA certificate',
    bad: 'MIIBnot-a-pem',
    message: 'must be in PEM form',
    isAdvanced: true,
  },
];

const HTTP_VIOLATIONS: Violation[] = [
  {
    rule: 'host with protocol',
    field: 'Server URL',
    bad: 'hooks.example.com',
    message: 'host must start with http:// or https://',
  },
  {
    rule: 'host without a port',
    field: 'Server URL',
    bad: 'http://hooks.example.com:8080',
    message: 'host must be a URL without a port',
  },
  { rule: 'port 1 to 65535', field: 'Server port', bad: '0', message: 'must be a port from 1 to 65535' },
  {
    rule: 'username required with BASIC_AUTH',
    field: 'User name',
    bad: '',
    message: 'username is required when authMethod is BASIC_AUTH',
    before: async () => {
      await page.getByRole('combobox', { name: 'Authentication' }).selectOption('BASIC_AUTH');
      await page.getByLabel('HTTP password').fill('secret');
    },
  },
  {
    rule: 'password required with BASIC_AUTH',
    field: 'HTTP password',
    bad: '',
    message: 'password is required when authMethod is BASIC_AUTH',
    before: async () => {
      await page.getByRole('combobox', { name: 'Authentication' }).selectOption('BASIC_AUTH');
      await page.getByRole('textbox', { name: 'User name' }).fill('hook');
    },
  },
  {
    rule: 'header name not empty',
    field: 'Header 1 name',
    bad: ' ',
    message: 'header name must not be empty',
    before: async () => {
      await page.getByRole('button', { name: 'Add header' }).click();
    },
  },
  {
    rule: 'client certificate in PEM form',
    field: 'Client certificate',
    bad: 'just text',
    message: 'must be in PEM form',
    isAdvanced: true,
  },
];

async function expectRefused(violation: Violation, fillValid: () => Promise<void>): Promise<void> {
  await openArea('', 'New integration');
  await fillValid();
  if (violation.isAdvanced) await page.getByText(/^Advanced/).click();
  await violation.before?.();
  const control = page.getByLabel(violation.field, { exact: true });
  await control.fill(violation.bad);
  const stored = simulator.world.tenant.integrations.size;
  await page.getByRole('button', { name: 'Save integration' }).click();
  await page.getByRole('alert').filter({ hasText: 'Nothing was sent' }).waitFor();
  expect(await descriptionOf(control)).toContain(violation.message);
  expect(await control.getAttribute('aria-invalid')).toBe('true');
  expect(simulator.world.tenant.integrations.size).toBe(stored);
}

describe('MQTT_V2 integration form', () => {
  for (const violation of MQTT_VIOLATIONS) {
    it(`refuses a violation of "${violation.rule}" with a message next to ${violation.field}`, async () => {
      await expectRefused(violation, fillValidMqtt);
    });
  }

  it('tests the broker from this laptop and says so', async () => {
    await openArea('', 'New integration');
    await fillValidMqtt();
    await page.getByRole('button', { name: 'Test from this laptop' }).click();
    const result = page.getByRole('status', { name: 'Laptop test result' });
    await result.waitFor();
    expect(await result.textContent()).toContain(
      `Laptop test passed: This laptop connected to the broker at mqtt://127.0.0.1:${broker.port}.`,
    );
  });

  it('reports a wrong broker password from the laptop test in words', async () => {
    await openArea('', 'New integration');
    await fillValidMqtt();
    await page.getByLabel('Password', { exact: true }).fill('wrong');
    await page.getByRole('button', { name: 'Test from this laptop' }).click();
    const result = page.getByRole('status', { name: 'Laptop test result' });
    await result.waitFor();
    expect(await result.textContent()).toContain('check the token (user name) and password');
  });

  it('saves a valid integration and the server stores it', async () => {
    await openArea('', 'New integration');
    await fillValidMqtt();
    await page.getByRole('button', { name: 'Save integration' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved integration “Roof uplinks”' }).waitFor();
    const names = [...simulator.world.tenant.integrations.values()].map((integration) => integration.name);
    expect(names).toContain('Roof uplinks');
    // The converter the server accepted is offered next time.
    await openArea('', 'New integration');
    const offered = await page
      .locator('#integration-converters option')
      .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
    expect(offered).toEqual([ids.converterV2]);
  });

  it('explains the server refusing a version 1 converter', async () => {
    await openArea('', 'New integration');
    await fillValidMqtt();
    await page.getByRole('combobox', { name: 'Converter id (version 2)' }).fill(ids.converterV1);
    await page.getByRole('button', { name: 'Save integration' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'needs a version 2 converter' });
    await alert.waitFor();
  });
});

describe('HTTP_V2 integration form', () => {
  for (const violation of HTTP_VIOLATIONS) {
    it(`refuses a violation of "${violation.rule}" with a message next to ${violation.field}`, async () => {
      await expectRefused(violation, fillValidHttp);
    });
  }
});

describe('ADR network settings', () => {
  async function readApplicationSettings(): Promise<void> {
    await openArea('/network-settings', 'ADR network settings');
    await page.getByRole('combobox', { name: 'Application id' }).fill(ids.applicationId);
    await page.getByRole('button', { name: 'Read settings' }).click();
    await page.getByRole('group', { name: /Transmissions per data rate/ }).waitFor();
  }

  it('refuses minNbTrans above maxNbTrans with a message next to the cell and sends nothing', async () => {
    await readApplicationSettings();
    await page.getByRole('checkbox', { name: 'DR3 has a range' }).check();
    await page.getByRole('textbox', { name: 'DR3 fewest transmissions' }).fill('3');
    await page.getByRole('textbox', { name: 'DR3 most transmissions' }).fill('1');
    await page.getByRole('button', { name: 'Review changes' }).click();
    await page.getByRole('alert').filter({ hasText: 'Nothing was sent' }).waitFor();
    const cell = page.getByRole('textbox', { name: 'DR3 fewest transmissions' });
    expect(await descriptionOf(cell)).toBe('minNbTrans must not be higher than maxNbTrans');
    expect(simulator.world.networkSettings.size).toBe(0);
  });

  it('refuses an NbTrans above 3', async () => {
    await readApplicationSettings();
    await page.getByRole('checkbox', { name: 'DR0 has a range' }).check();
    await page.getByRole('textbox', { name: 'DR0 most transmissions' }).fill('4');
    await page.getByRole('button', { name: 'Review changes' }).click();
    expect(await descriptionOf(page.getByRole('textbox', { name: 'DR0 most transmissions' }))).toBe(
      'must be 1 to 3',
    );
  });

  it('shows what will change before the POST, then saves without adrMaxNbTrans/adrMinNbTrans and reads back', async () => {
    await readApplicationSettings();
    await page.getByRole('checkbox', { name: 'DR5 has a range' }).check();
    await page.getByRole('textbox', { name: 'DR5 fewest transmissions' }).fill('2');
    await page.getByRole('textbox', { name: 'DR5 most transmissions' }).fill('3');
    await page.getByRole('checkbox', { name: 'Cautious ADR steps' }).check();
    await page.getByRole('button', { name: 'Review changes' }).click();
    const diff = page.getByRole('region', { name: 'What will change' });
    await diff.waitFor();
    // Each changed setting in words, its path only as a muted hint.
    const changed = await diff.getByRole('rowheader').allTextContents();
    expect(changed.some((text) => text.trim().startsWith('ADR conservative slope'))).toBe(true);
    const paths = await diff.locator('.api-hint').allTextContents();
    expect(paths).toContain('adrConservativeSlope');
    expect(paths.some((path) => path.startsWith('adrNbTransRanges.5'))).toBe(true);
    expect(simulator.world.networkSettings.size).toBe(0);
    await page.getByRole('button', { name: 'Save network settings' }).click();
    await page.getByRole('status').filter({ hasText: 'read back from the server' }).waitFor();
    const stored = simulator.world.networkSettings.get(`APPLICATION:${ids.applicationId}`);
    expect(stored).toMatchObject({
      adrConservativeSlope: true,
      adrNbTransRanges: { '5': { minNbTrans: 2, maxNbTrans: 3 } },
    });
    expect(stored).not.toHaveProperty('adrMaxNbTrans');
    expect(stored).not.toHaveProperty('adrMinNbTrans');
    expect(await page.getByRole('textbox', { name: 'DR5 fewest transmissions' }).inputValue()).toBe('2');
  });
});

describe('customer token lifetimes', () => {
  async function readCustomer(): Promise<void> {
    await openArea('/customer', 'Customer token lifetimes');
    expect(await page.getByRole('textbox', { name: 'Customer id' }).inputValue()).toBe(ids.customerId);
    await page.getByRole('button', { name: 'Read customer' }).click();
    await page.getByRole('button', { name: 'Save token lifetimes' }).waitFor();
  }

  it('refuses a lifetime under one second', async () => {
    await readCustomer();
    const field = page.getByRole('textbox', { name: 'Access token lifetime' });
    await field.fill('0');
    await page.getByRole('button', { name: 'Save token lifetimes' }).click();
    await page.getByRole('alert').filter({ hasText: 'Nothing was sent' }).waitFor();
    expect(await descriptionOf(field)).toContain('must be at least 1 second');
  });

  it('edits lifetimes in human units with the seconds shown, saves the whole record and reads it back', async () => {
    await readCustomer();
    await page.getByRole('textbox', { name: 'Access token lifetime' }).fill('30');
    await page.getByRole('combobox', { name: 'Access token unit' }).selectOption('minutes');
    await page.getByRole('textbox', { name: 'Refresh token lifetime' }).fill('2');
    await page.getByRole('combobox', { name: 'Refresh token unit' }).selectOption('days');
    expect(await descriptionOf(page.getByRole('textbox', { name: 'Access token lifetime' }))).toBe(
      '1800 seconds',
    );
    await page
      .getByText(/access\s+tokens\s+valid\s+for\s+30 minutes\s+and\s+refresh\s+tokens\s+valid\s+for\s+2 days/)
      .waitFor();
    await page.getByRole('button', { name: 'Save token lifetimes' }).click();
    await page
      .getByRole('status')
      .filter({
        hasText: 'Saved and read back: access tokens 30 minutes (1800 s), refresh tokens 2 days (172800 s).',
      })
      .waitFor();
    expect(simulator.world.tenant.customers.get(ids.customerId)?.additionalInfo).toMatchObject({
      accessTokenTtlSeconds: 1800,
      refreshTokenTtlSeconds: 172_800,
    });
  });
});
