// The session's refresh token expires on the server: the next call answers SESSION_EXPIRED and the renderer
// is told (session:changed, state 'expired') whose session it was, so it can offer a re-login in place.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultServerSession, FieldKitServices } from '../../../electron/app';
import { MemoryStore } from '../../../electron/services/credentials';
import { createRouter } from '../../../electron/shared/ipc/router';
import type { SessionSummary } from '../../../electron/shared/ipc/schemas';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { ManualClock } from '../../helpers/manual-clock';

let folder: string;
let simulator: RunningSimulator;
let clock: ManualClock;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-expiry-'));
  clock = new ManualClock(Date.now());
  simulator = await startSimulator({ port: 0, clock, accessTtl: 60, refreshTtl: 120 });
});

afterAll(async () => {
  await simulator.close();
  await rm(folder, { recursive: true, force: true });
});

describe('session expiry', () => {
  it('answers SESSION_EXPIRED and pushes an expired summary that keeps the user', async () => {
    const services = await FieldKitServices.create({
      dataDir: folder,
      mode: 'browser',
      version: '0.0.0',
      credentials: { store: new MemoryStore(), keychain: 'os' },
      createSession: createDefaultServerSession,
    });
    const router = createRouter<null>({
      handlers: services.handlers,
      isTrustedSender: () => true,
      mapError: services.mapError,
    });
    const dispatch = (channel: string, input?: unknown) => router.dispatch(channel, input, null);
    const saved = (await dispatch('profiles:save', { name: 'Sim', baseUrl: simulator.url })) as {
      value: { id: string };
    };
    const account = simulator.fixture.accounts[0]!;
    await dispatch('session:login', {
      profileId: saved.value.id,
      username: account.username,
      password: account.password,
      remember: 'session',
    });
    const changes: (SessionSummary | null)[] = [];
    services.events.on('session:changed', (summary) => changes.push(summary));

    clock.advance(10 * 60_000);
    const result = await dispatch('api:call', { endpoint: 'getCurrentUser' });

    expect(result).toMatchObject({ ok: false, error: { code: 'SESSION_EXPIRED' } });
    expect(changes.at(-1)).toMatchObject({ state: 'expired', username: account.username });
    expect(await dispatch('session:get')).toMatchObject({ ok: true, value: { state: 'expired' } });
    await services.close();
  });
});
