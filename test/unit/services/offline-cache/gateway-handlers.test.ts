import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../../../electron/services/api';
import { FieldKitServices, type ServerSessionFacts, type ServerSessionPort } from '../../../../electron/app';
import type {
  CommandName,
  CommandResponse,
  EndpointName,
  EndpointResponse,
} from '../../../../electron/shared/api';
import { MemoryStore } from '../../../../electron/services/credentials';
import { createRouter } from '../../../../electron/shared/ipc/router';
import { makeServerSessionFacts } from '../../../helpers/factories';

// The gateway:command and api:call handlers with a session double: what they leave in the audit log and the
// offline cache.

const RELAY_PASSWORD = 'relay-pass-7f3a91';

class FakeSession implements ServerSessionPort {
  commandAnswer: () => Promise<unknown> = async () => ({ ok: true });
  callAnswer: () => Promise<unknown> = async () => ({
    data: [],
    totalPages: 0,
    totalElements: 0,
    hasNext: false,
  });
  private current: ServerSessionFacts | null = null;
  async login(username: string) {
    this.current = makeServerSessionFacts({ username });
  }
  async resume() {}
  async logout() {
    this.current = null;
  }
  // The double answers whatever its test sets, whatever the table says.
  async call<Name extends EndpointName>(): Promise<EndpointResponse<Name>> {
    return (await this.callAnswer()) as EndpointResponse<Name>;
  }
  async sendGatewayCommand<Name extends CommandName>(): Promise<CommandResponse<Name>> {
    return (await this.commandAnswer()) as CommandResponse<Name>;
  }
  facts() {
    return this.current;
  }
  refreshToken() {
    return null;
  }
  onChange() {
    return () => undefined;
  }
  dispose() {}
}

let folder: string;
let session: FakeSession;
let services: FieldKitServices;
let invoke: (channel: string, input: unknown) => Promise<{ ok: boolean; value?: unknown; error?: unknown }>;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-gateway-handlers-'));
  session = new FakeSession();
  services = await FieldKitServices.create({
    dataDir: folder,
    mode: 'browser',
    version: '0.1.0',
    credentials: { store: new MemoryStore(), keychain: 'os' },
    createSession: () => session,
  });
  const router = createRouter<null>({
    handlers: services.handlers,
    isTrustedSender: () => true,
    mapError: services.mapError,
  });
  invoke = (channel, input) => router.dispatch(channel, input, null);
  const profile = await services.profiles.save({ name: 'Lab', baseUrl: 'https://oam.lab.example' });
  const login = await invoke('session:login', {
    profileId: profile.id,
    username: 'tech@lab.example',
    password: 'login-password',
    remember: 'none',
  });
  expect(login.ok).toBe(true);
});

afterEach(async () => {
  await services.close();
  await rm(folder, { recursive: true, force: true });
});

async function auditText(): Promise<string> {
  const profileId = services.sessions.summary()?.profileId ?? '';
  return readFile(services.audit.pathOf(profileId), 'utf8');
}

const REVERSE_SSH = {
  options: '',
  sshRevPort: 40022,
  username: 'relay',
  password: RELAY_PASSWORD,
  sshHost: 'relay.example.com',
  sshPort: 22,
};

/** The file's two lines for one change: `sent` (written before it left), then its outcome under the same id. */
function outcomeAfterSent(text: string): Record<string, unknown> {
  const [sent, outcome, ...rest] = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(rest).toEqual([]);
  expect(sent).toMatchObject({ outcome: 'sent', sendId: expect.any(String) });
  expect(outcome?.sendId).toBe(sent?.sendId);
  return outcome ?? {};
}

describe('gateway:command audit', () => {
  it('records a command with a password in its body and leaves no password in the file', async () => {
    const result = await invoke('gateway:command', {
      gatewayId: 'gw-1',
      command: 'reverseSsh',
      body: REVERSE_SSH,
    });
    expect(result.ok).toBe(true);
    const text = await auditText();
    expect(text).not.toContain(RELAY_PASSWORD);
    const entry = outcomeAfterSent(text);
    expect(entry).toMatchObject({
      user: 'tech@lab.example',
      gatewayId: 'gw-1',
      kind: 'command',
      name: 'reverseSsh',
      risk: 'change',
      outcome: 'ok',
      request: { username: 'relay', sshRevPort: 40022 },
    });
    expect(typeof entry.durationMs).toBe('number');
  });

  it('records a command the gateway did not answer as failed, with the reason', async () => {
    session.commandAnswer = () =>
      Promise.reject(new ApiError(408, 2, 'Gateway did not respond', 'gatewayCommand'));
    const result = await invoke('gateway:command', {
      gatewayId: 'gw-1',
      command: 'reboot',
      body: {},
      confirmation: { acknowledged: true },
    });
    expect(result.ok).toBe(false);
    const entry = outcomeAfterSent(await auditText());
    expect(entry).toMatchObject({ name: 'reboot', risk: 'disruptive', outcome: 'failed' });
    expect(entry.error).toMatch(/did not respond/);
  });
});

describe('gateway:command confirmation', () => {
  it('refuses a disruptive command without a yes, naming its consequence, and sends nothing', async () => {
    let sent = 0;
    session.commandAnswer = () => {
      sent++;
      return Promise.resolve({});
    };
    const result = await invoke('gateway:command', { gatewayId: 'gw-1', command: 'reboot', body: {} });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('The gateway restarts') },
    });
    expect(sent).toBe(0);
  });

  it('refuses a firewall that turns SSH off until DISABLE SSH is typed, like the wizard', async () => {
    let sent = 0;
    session.commandAnswer = () => {
      sent++;
      return Promise.resolve({});
    };
    const body = {
      enabled: true,
      doSPrevention: { enabled: true, perMinLimit: 100, burstLimit: 20 },
      ssh: { enabled: false },
      ping: { enabled: true, limit: { enabled: false, pingPerMinLimit: 10, pingBurstLimit: 5 } },
      filters: [],
    };
    const call = (confirmation: unknown) =>
      invoke('gateway:command', {
        gatewayId: 'gw-1',
        command: 'setFirewallConfiguration',
        body,
        confirmation,
      });
    const refused = await call({ acknowledged: true });
    expect((refused.error as { message: string }).message).toContain('type "DISABLE SSH" to confirm');
    expect(sent).toBe(0);
    const accepted = await call({ acknowledged: true, typed: { 'ssh-lockout': 'DISABLE SSH' } });
    expect(accepted.ok).toBe(true);
    expect(sent).toBe(1);
  });
});

describe('api:call offline cache', () => {
  const LIST = {
    endpoint: 'listCustomerGateways',
    params: { customerId: 'customer-1' },
    query: { page: 0, limit: 100 },
  };

  it('keeps the last answer of a list read and serves it through cache:get', async () => {
    const page = { data: [], totalPages: 0, totalElements: 0, hasNext: false };
    session.callAnswer = async () => page;
    await invoke('api:call', LIST);
    const cached = await invoke('cache:get', LIST);
    expect(cached).toMatchObject({ ok: true, value: { value: page } });
  });

  it('keeps nothing when the server cannot be reached', async () => {
    session.callAnswer = () =>
      Promise.reject(new NetworkError('listCustomerGateways', 'connect ECONNREFUSED'));
    const result = await invoke('api:call', LIST);
    expect(result).toMatchObject({ ok: false, error: { code: 'NETWORK' } });
    expect(await invoke('cache:get', LIST)).toEqual({ ok: true, value: null });
  });
});
