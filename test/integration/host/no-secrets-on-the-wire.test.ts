// Every frame between the browser and the host, both directions, during login → call → silent refresh →
// resume → logout → relay password saved: no access token, refresh token or password crosses, except the password
// in the login call and the relay password in the save that stores it.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { startHost, type StartedHost } from '../../../electron/host';
import { MemoryStore } from '../../../electron/services/credentials';
import { startSimulator, type RunningSimulator } from '../../../simulator';
import { ManualClock } from '../../helpers/manual-clock';
import { createHostSocket, exchangeLink } from '../../helpers/host-socket';

let folder: string;
let simulator: RunningSimulator;
let clock: ManualClock;
let host: StartedHost;
const issuedTokens: string[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-wire-'));
  await mkdir(join(folder, 'renderer'));
  await writeFile(join(folder, 'renderer', 'index.html'), '<!doctype html><title>Kit</title>');
  clock = new ManualClock(Date.now());
  simulator = await startSimulator({ port: 0, clock, accessTtl: 60, refreshTtl: 3600 });
  const tokens = simulator.world.tokens;
  const login = tokens.login.bind(tokens);
  const refresh = tokens.refresh.bind(tokens);
  tokens.login = async (username, password) => {
    const pair = await login(username, password);
    issuedTokens.push(pair.token, pair.refreshToken);
    return pair;
  };
  tokens.refresh = async (refreshToken) => {
    const pair = await refresh(refreshToken);
    issuedTokens.push(pair.token, pair.refreshToken);
    return pair;
  };
  host = await startHost({
    dataDir: join(folder, 'data'),
    rendererDir: join(folder, 'renderer'),
    credentials: { store: new MemoryStore(), keychain: 'os' },
    log: { info: () => undefined, error: () => undefined },
  });
});

afterAll(async () => {
  await host.close();
  await simulator.close();
  await rm(folder, { recursive: true, force: true });
});

describe('the IPC wire', () => {
  it('carries no token and no password except the login form submission', async () => {
    const origin = `http://127.0.0.1:${host.port}`;
    const socket = createHostSocket(origin, await exchangeLink(host.url));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const frames: { direction: 'out' | 'in'; text: string }[] = [];
    socket.on('message', (data) => frames.push({ direction: 'in', text: data.toString() }));
    let nextId = 1;
    const invoke = (channel: string, input?: unknown) =>
      new Promise<{ ok: boolean; value?: unknown }>((resolve) => {
        const id = nextId++;
        const onMessage = (data: WebSocket.RawData) => {
          const message = JSON.parse(data.toString()) as {
            id?: number;
            result?: { ok: boolean; value?: unknown };
          };
          if (message.id !== id) return;
          socket.off('message', onMessage);
          resolve(message.result!);
        };
        socket.on('message', onMessage);
        const text = JSON.stringify({ id, channel, input });
        frames.push({ direction: 'out', text });
        socket.send(text);
      });

    const account = simulator.fixture.accounts[0]!;
    const profile = (await invoke('profiles:save', { name: 'Sim', baseUrl: simulator.url })) as {
      value: { id: string };
    };
    const profileId = profile.value.id;
    expect(
      await invoke('session:login', {
        profileId,
        username: account.username,
        password: account.password,
        remember: 'password',
      }),
    ).toMatchObject({ ok: true });
    expect(await invoke('api:call', { endpoint: 'getCurrentUser' })).toMatchObject({ ok: true });
    clock.advance(2 * 60_000);
    expect(await invoke('api:call', { endpoint: 'getCurrentUser' })).toMatchObject({ ok: true });
    expect(await invoke('session:resume', { profileId })).toMatchObject({ ok: true });
    expect(await invoke('session:get')).toMatchObject({ ok: true });
    expect(await invoke('session:logout')).toMatchObject({ ok: true });
    const relayPassword = 'relay-secret-on-the-wire';
    expect(
      await invoke('profiles:save', {
        id: profileId,
        name: 'Sim',
        baseUrl: simulator.url,
        relay: { host: '127.0.0.1', port: 22, username: 'tunnel' },
        relayPassword,
      }),
    ).toMatchObject({ ok: true, value: { relayPasswordStored: true } });
    expect(await invoke('profiles:list')).toMatchObject({ ok: true });
    socket.close();

    expect(issuedTokens.length).toBeGreaterThanOrEqual(6);
    for (const frame of frames) {
      for (const token of issuedTokens) expect(frame.text).not.toContain(token);
      const isLoginCall = frame.direction === 'out' && frame.text.includes('"channel":"session:login"');
      if (!isLoginCall) expect(frame.text).not.toContain(account.password);
      const isRelayPasswordSave =
        frame.direction === 'out' && frame.text.includes(`"relayPassword":"${relayPassword}"`);
      if (!isRelayPasswordSave) expect(frame.text).not.toContain(relayPassword);
    }
  });
});
