// Two accounts on one profile's server, one after the other on the same laptop, each with a visit of its own: each
// one's site report (its visit's journal) and audit read show only that account's work, and a visit one account
// recorded is not reported to the other. Through the app's handlers, over the simulator's real API.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultServerSession, FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import { createRouter } from '../../../electron/shared/ipc/router';
import type { RunningSimulator } from '../../../simulator';
import { passwordOf, startTestSimulator, type DemoRole } from '../../helpers/simulator';

let folder: string;
let simulator: RunningSimulator;
let services: FieldKitServices;
let dispatch: (
  channel: string,
  input?: unknown,
) => Promise<{ ok: boolean; value?: unknown; error?: unknown }>;
let profileId: string;
let acmeGateway: { id: string; name: string };
/** The visit the first account recorded (opened while it was signed in, closed before it signed out). */
let acmeVisitId: string;
const visitStart = Date.now() - 1_000;

async function signInAs(role: DemoRole): Promise<void> {
  const answer = await dispatch('session:login', {
    profileId,
    ...passwordOf(simulator, role),
    remember: 'none',
  });
  expect(answer.ok).toBe(true);
}

async function auditUsers(): Promise<string[]> {
  const answer = (await dispatch('audit:read', { since: visitStart })) as {
    value: { entries: Array<{ user: string }> };
  };
  return answer.value.entries.map((entry) => entry.user);
}

async function reportHtml(visitId?: string): Promise<string> {
  const answer = (await dispatch('report:export', {
    ...(visitId ? { visitId } : {}),
    format: 'html',
  })) as {
    ok: boolean;
    value: { base64: string };
  };
  expect(answer.ok).toBe(true);
  return Buffer.from(answer.value.base64, 'base64').toString('utf8');
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-report-per-user-'));
  simulator = await startTestSimulator({ offlineFraction: 0 });
  services = await FieldKitServices.create({
    dataDir: folder,
    mode: 'browser',
    version: '0.0.0',
    credentials: { store: new MemoryStore(), keychain: 'session-only' },
    createSession: createDefaultServerSession,
    commissioning: { reportsDir: join(folder, 'reports') },
  });
  const router = createRouter<null>({
    handlers: services.handlers,
    isTrustedSender: () => true,
    mapError: services.mapError,
  });
  dispatch = (channel, input) => router.dispatch(channel, input, null);
  const saved = (await dispatch('profiles:save', { name: 'Sim', baseUrl: simulator.url })) as {
    value: { id: string };
  };
  profileId = saved.value.id;
  // As the login screen does: the profile signed in to is the selected one, whose work field mode shows.
  await dispatch('profiles:select', { id: profileId });
  const tech = simulator.fixture.accounts.find((account) => account.username === 'tech@acme.demo')!;
  acmeGateway = simulator.fixture.gateways.find((gateway) => gateway.customerId === tech.customerId)!;

  await signInAs('acme');
  const opened = (await dispatch('visit:open', { site: 'Acme roof' })) as { value: { id: string } };
  acmeVisitId = opened.value.id;
  const backup = await dispatch('gateway-task:run', {
    gatewayId: acmeGateway.id,
    task: { task: 'createBackup', description: 'before the visit' },
  });
  expect(backup.ok).toBe(true);
  expect((await dispatch('visit:close', {})).ok).toBe(true);
  await dispatch('session:logout', {});
}, 60_000);

afterAll(async () => {
  await services?.close();
  await simulator?.close();
  await rm(folder, { recursive: true, force: true });
});

describe("one account's site report never shows another's work", () => {
  it("shows the first account's visit to it in field mode, as the last user signed in", async () => {
    expect(await auditUsers()).toContain('tech@acme.demo');
    const html = await reportHtml(acmeVisitId);
    expect(html).toContain('tech@acme.demo (not signed in: field mode)');
    expect(html).toContain('Create a backup');
  });

  it("lists none of the first account's entries to the second account", async () => {
    await signInAs('globex');
    expect(await auditUsers()).toEqual([]);
  });

  it("refuses the first account's visit to the second account, naming whose it is", async () => {
    const answer = await dispatch('report:export', { visitId: acmeVisitId, format: 'html' });
    expect(answer).toMatchObject({
      ok: false,
      error: {
        code: 'FORBIDDEN',
        message: 'This visit was recorded by tech@acme.demo: only that account can make its report.',
      },
    });
  });

  it("leaves the first account's gateways and name out of the second account's report", async () => {
    expect((await dispatch('visit:open', { site: 'Globex yard' })).ok).toBe(true);
    const html = await reportHtml();
    expect(html).toContain('ops@globex.demo');
    expect(html).not.toContain('tech@acme.demo');
    expect(html).not.toContain(acmeGateway.id);
    expect(html).not.toContain('Create a backup');
  });

  it("shows the second account's field mode its own (empty) work after it signs out", async () => {
    await dispatch('session:logout', {});
    expect(await auditUsers()).toEqual([]);
    expect(await reportHtml()).not.toContain(acmeGateway.id);
  });
});
