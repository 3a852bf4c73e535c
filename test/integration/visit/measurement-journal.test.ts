// Measurements in the visit journal, through the app's handlers over the simulator's real API: a ping's and a
// diagnostics read's answers, and each RF meter reading, are on the disk before the renderer is given them; a
// journal that cannot be written (a real ENOSPC: the journal file swapped for /dev/full) refuses them.
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDefaultServerSession, FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import { createRouter } from '../../../electron/shared/ipc/router';
import type { VisitEntry } from '../../../electron/shared/visit/journal-entry';
import type { RunningSimulator } from '../../../simulator';
import { passwordOf, startTestSimulator } from '../../helpers/simulator';

let folder: string;
let simulator: RunningSimulator;
let services: FieldKitServices | undefined;
const credentials = new MemoryStore();

type Answer = { ok: boolean; value?: unknown; error?: { message: string } };

/** The app's services over the test folder, with a dispatch that calls them as the renderer would. */
async function startServices() {
  services = await FieldKitServices.create({
    dataDir: folder,
    mode: 'browser',
    version: '0.0.0',
    credentials: { store: credentials, keychain: 'session-only' },
    createSession: createDefaultServerSession,
    commissioning: { reportsDir: join(folder, 'reports') },
  });
  const router = createRouter<null>({
    handlers: services.handlers,
    isTrustedSender: () => true,
    mapError: services.mapError,
  });
  const running = services;
  return {
    services: running,
    dispatch: (channel: string, input?: unknown) => router.dispatch(channel, input, null) as Promise<Answer>,
  };
}

/** Starts the services, signs the Acme technician in and answers one of Acme's gateways. */
async function signedIn() {
  const app = await startServices();
  const profile = (await app.dispatch('profiles:save', { name: 'Sim', baseUrl: simulator.url })) as {
    value: { id: string };
  };
  const login = await app.dispatch('session:login', {
    profileId: profile.value.id,
    ...passwordOf(simulator, 'acme'),
    remember: 'none',
  });
  expect(login.ok).toBe(true);
  const tech = simulator.fixture.accounts.find((account) => account.username === 'tech@acme.demo')!;
  const gateway = simulator.fixture.gateways.find((item) => item.customerId === tech.customerId)!;
  return { ...app, gatewayId: gateway.id };
}

/** The measurement entries of the open visit, oldest first. */
function measurements(app: { services: FieldKitServices }) {
  const open = app.services.visits.current()!;
  return app.services.visits
    .entries(open.id)
    .map((line) => line.entry as VisitEntry)
    .filter((entry) => entry.kind === 'measurement');
}

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-measurements-'));
  simulator = await startTestSimulator({ offlineFraction: 0 });
});

afterEach(async () => {
  await services?.close();
  services = undefined;
  await simulator.close();
  await rm(folder, { recursive: true, force: true });
});

describe('measurements in the visit journal', () => {
  it("records a ping's answer, with its destination, before the task answers", async () => {
    const app = await signedIn();
    await app.dispatch('visit:open', { site: 'Harbour warehouse roof' });
    const answer = await app.dispatch('gateway-task:run', {
      gatewayId: app.gatewayId,
      task: { task: 'ping', destination: '8.8.8.8', packetsCount: 3 },
    });
    expect(answer.ok).toBe(true);
    const { value } = answer.value as { value: unknown };
    expect(measurements(app)).toEqual([
      {
        kind: 'measurement',
        gateway: { gatewayId: app.gatewayId },
        measurement: 'ping',
        values: { read: 'ping', destination: '8.8.8.8', packetsCount: 3, answer: value },
      },
    ]);
  });

  it("records a diagnostics read's answer, and nothing for a read that is not a measurement", async () => {
    const app = await signedIn();
    await app.dispatch('visit:open', { site: 'Harbour warehouse roof' });
    const software = await app.dispatch('gateway-task:run', {
      gatewayId: app.gatewayId,
      task: { task: 'readSoftware' },
    });
    expect(software.ok).toBe(true);
    const answer = await app.dispatch('gateway-task:run', {
      gatewayId: app.gatewayId,
      task: { task: 'readDiagnostics' },
    });
    expect(answer.ok).toBe(true);
    const { value } = answer.value as { value: unknown };
    expect(measurements(app)).toEqual([
      {
        kind: 'measurement',
        gateway: { gatewayId: app.gatewayId },
        measurement: 'diagnostics',
        values: { read: 'readDiagnostics', answer: value },
      },
    ]);
  });

  it('has each RF reading on the disk when the renderer is sent it', async () => {
    const app = await signedIn();
    await app.dispatch('visit:open', { site: 'Harbour warehouse roof' });
    const recordedWhenSent = new Promise<{ sample: unknown; recorded: unknown[] }>((resolve) => {
      const off = app.services.events.on('rf-meter:sample', ({ sample }) => {
        off();
        resolve({
          sample,
          recorded: measurements(app).map((entry) => entry.kind === 'measurement' && entry.values),
        });
      });
    });
    const started = await app.dispatch('rf-meter:start', { gatewayId: app.gatewayId, intervalMs: 500 });
    expect(started.ok).toBe(true);
    const { meterId } = started.value as { meterId: string };
    const { sample, recorded } = await recordedWhenSent;
    await app.dispatch('rf-meter:stop', { meterId });
    expect(recorded[0]).toEqual({ meterId, ...(sample as object) });
  });

  it('refuses a ping and an RF reading the journal cannot record on a full disk, and says why', async () => {
    const first = await startServices();
    const visit = (await first.dispatch('visit:open', { site: 'Harbour warehouse roof' })).value as {
      id: string;
    };
    await first.services.close();
    const app = await signedIn();
    // Each write to /dev/full fails with ENOSPC, as on a disk with no space left.
    const journal = app.services.visits.pathsOf(visit.id).journal;
    await rm(journal);
    await symlink('/dev/full', journal);

    const ping = await app.dispatch('gateway-task:run', {
      gatewayId: app.gatewayId,
      task: { task: 'ping', destination: '8.8.8.8', packetsCount: 1 },
    });
    expect(ping.ok).toBe(false);
    // The ping's own command-outcome entry met the full disk first; /dev/full cannot be cut back, so the journal
    // then refuses every append, the measurement's included. On a real disk the words are the ENOSPC ones.
    expect(ping.error?.message).toMatch(
      /^(The visit journal could not be written \(the disk is full\), so this was not done|A write to the visit journal failed and could not be undone)/,
    );

    const refused = new Promise<string>((resolve) => {
      const off = app.services.events.on('rf-meter:error', ({ message }) => {
        off();
        resolve(message);
      });
    });
    let samplesShown = 0;
    app.services.events.on('rf-meter:sample', () => (samplesShown += 1));
    const started = await app.dispatch('rf-meter:start', { gatewayId: app.gatewayId, intervalMs: 500 });
    const message = await refused;
    await app.dispatch('rf-meter:stop', { meterId: (started.value as { meterId: string }).meterId });
    expect(message).toMatch(/^This RF reading is not shown: /);
    expect(samplesShown).toBe(0);
  });
});
