import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FieldKitServices, type ServerSessionFacts, type ServerSessionPort } from '../../../electron/app';
import { CallCancellation } from '../../../electron/app/call-cancellation';
import { createWizardsHandlers } from '../../../electron/app/domains/wizards';
import type { CommandCallOptions } from '../../../electron/services/commands';
import { CancelledError } from '../../../electron/services/commissioning';
import { MemoryStore } from '../../../electron/services/credentials';
import { createRouter } from '../../../electron/shared/ipc/router';
import type { TerminalInfo } from '../../../electron/shared/terminal/terminal-schemas';
import { makeGateway, makeServerSessionFacts } from '../../helpers/factories';
import type {
  CommandName,
  CommandRequest,
  CommandResponse,
  EndpointName,
  EndpointResponse,
} from '../../../electron/shared/api';

// The commissioning channels over the real router, with a session double that behaves like one small gateway
// (firewall, backups, ping target, ping). What the renderer sees: outputs, errors in words, events.

function firewallFactory() {
  return {
    enabled: true,
    doSPrevention: { enabled: true, perMinLimit: 100, burstLimit: 20 },
    ssh: { enabled: true },
    ping: { enabled: true, limit: { enabled: false, pingPerMinLimit: 10, pingBurstLimit: 5 } },
    filters: [],
  };
}

class GatewayDouble implements ServerSessionPort {
  firewall = firewallFactory();
  pingTarget = '8.8.8.8';
  backups: Array<{ index: number; description: string; date: string }> = [];
  sent: string[] = [];
  offline = new Set<string>();
  private current: ServerSessionFacts | null = null;
  async login(username: string) {
    this.current = makeServerSessionFacts({ username });
  }
  async resume() {}
  async logout() {
    this.current = null;
  }
  groupGateways: Array<{ id: string; name: string; status: 'ONLINE' | 'OFFLINE' }> = [];
  async call<Name extends EndpointName>(endpoint: Name): Promise<EndpointResponse<Name>> {
    return (await this.answerCall(endpoint)) as EndpointResponse<Name>;
  }
  /** Set: each command is held (never answered) and its signal handed here, until the signal aborts. */
  onHold: ((signal: AbortSignal | undefined) => void) | undefined;
  async sendGatewayCommand<Name extends CommandName>(
    gatewayId: string,
    command: Name,
    body?: CommandRequest<Name>,
    options: CommandCallOptions = {},
  ): Promise<CommandResponse<Name>> {
    if (this.onHold) {
      const { signal } = options;
      this.onHold(signal);
      await new Promise((_resolve, reject) =>
        signal?.addEventListener('abort', () => reject(new CancelledError()), { once: true }),
      );
    }
    return (await this.answerCommand(gatewayId, command, body)) as CommandResponse<Name>;
  }
  // The double plays the server: its answers are typed by the callers above, as the real client's are.
  private async answerCall(endpoint: string) {
    const data =
      endpoint === 'listGatewayGroupGateways'
        ? this.groupGateways.map((gateway, index) =>
            makeGateway(index, {
              id: { entityType: 'GATEWAY', id: gateway.id },
              name: gateway.name,
              status: gateway.status,
            }),
          )
        : [];
    return { data, totalPages: 1, totalElements: data.length, hasNext: false };
  }
  private async answerCommand(gatewayId: string, command: string, body: unknown): Promise<unknown> {
    this.sent.push(`${gatewayId}:${command}`);
    if (this.offline.has(gatewayId)) throw new Error('unreachable');
    switch (command) {
      case 'getFirewallConfiguration':
        return structuredClone(this.firewall);
      case 'setFirewallConfiguration':
        this.firewall = structuredClone(body) as typeof this.firewall;
        return {};
      case 'createBackup': {
        const { description } = body as { description: string };
        this.backups.push({ index: this.backups.length, description, date: '2026-11-22T02:00:00' });
        return {};
      }
      case 'getBackups':
        return { status: 'OK', backups: this.backups };
      case 'getPreferredPingIpAddress':
        return { ipAddr: this.pingTarget };
      case 'setPreferredPingIpAddress':
        this.pingTarget = (body as { ipAddr: string }).ipAddr;
        return {};
      case 'ping':
        return { packets_sent: 4, packets_recv: 3 };
      default:
        throw new Error(`not simulated: ${command}`);
    }
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

// Answers are read loosely here: each test names the fields it checks.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
type Answer = { ok: boolean; value?: Loose; error?: { code: string; message: string } };

let folder: string;
let gateway: GatewayDouble;
let services: FieldKitServices;
let invoke: (channel: string, input: unknown) => Promise<Answer>;
let events: Array<{ name: string; payload: Loose }>;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-commissioning-'));
  gateway = new GatewayDouble();
  services = await FieldKitServices.create({
    dataDir: folder,
    mode: 'browser',
    version: '0.1.0',
    credentials: { store: new MemoryStore(), keychain: 'os' },
    createSession: () => gateway,
    commissioning: { reportsDir: join(folder, 'reports') },
  });
  events = [];
  services.events.onAny((name, payload) => events.push({ name, payload }));
  const router = createRouter<null>({
    handlers: services.handlers,
    isTrustedSender: () => true,
    mapError: services.mapError,
  });
  invoke = (channel, input) => router.dispatch(channel, input, null) as Promise<Answer>;
  const profile = await services.profiles.save({ name: 'Lab', baseUrl: 'https://oam.lab.example' });
  await invoke('session:login', {
    profileId: profile.id,
    username: 'tech@lab.example',
    password: 'login-password',
    remember: 'none',
  });
});

afterEach(async () => {
  await services.close();
  // A fleet job aborted by close() may still be finishing its last write: rm retries then.
  await rm(folder, { recursive: true, force: true, maxRetries: 5 });
});

async function readFirewall(): Promise<{ runId: string; edit: ReturnType<typeof firewallFactory> }> {
  const started = await invoke('wizard:start', { wizard: 'firewall', gatewayId: 'gw-1' });
  const read = await invoke('wizard:read', { runId: started.value.runId });
  return { runId: started.value.runId, edit: read.value.edit };
}

describe('wizard channels', () => {
  it('reads, reviews and applies a firewall change, ending with an applied result and a backup first', async () => {
    const { runId, edit } = await readFirewall();
    const changed = { ...edit, doSPrevention: { ...edit.doSPrevention, burstLimit: 40 } };
    const review = await invoke('wizard:review', { runId, edit: changed });
    expect(review.value.changes).toEqual([
      { path: 'doSPrevention.burstLimit', label: 'DoS burst limit', before: 20, after: 40 },
    ]);
    const result = await invoke('wizard:apply', { runId, edit: changed });
    expect(result.value.outcome).toBe('applied');
    expect(gateway.firewall.doSPrevention.burstLimit).toBe(40);
    expect(gateway.backups[0]?.description).toMatch(/^fieldkit-before-firewall-/);
    const steps = events.filter((event) => event.name === 'wizard:event').map((event) => event.payload.type);
    expect(steps.at(-1)).toBe('result');
  });

  it('refuses to block ping without the typed confirmation and sends no change', async () => {
    const { runId, edit } = await readFirewall();
    const blocked = { ...edit, ping: { ...edit.ping, enabled: false } };
    const review = await invoke('wizard:review', { runId, edit: blocked });
    expect(review.value.guards.map((guard: { confirmationText: string }) => guard.confirmationText)).toEqual([
      'BLOCK PING',
    ]);
    const refused = await invoke('wizard:apply', { runId, edit: blocked, confirmations: { ping: 'block' } });
    expect(refused.error?.code).toBe('INVALID_INPUT');
    expect(refused.error?.message).toContain('BLOCK PING');
    expect(gateway.sent).not.toContain('gw-1:setFirewallConfiguration');
  });

  it('answers in words when a run id is unknown', async () => {
    const answer = await invoke('wizard:read', { runId: 'gone' });
    expect(answer.error).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('start the wizard'),
    });
  });
});

describe('gateway tasks, audit and report', () => {
  it('refuses an upgrade that was not acknowledged, naming the restart, and sends nothing', async () => {
    const answer = await invoke('gateway-task:run', {
      gatewayId: 'gw-1',
      task: { task: 'upgrade', packageName: 'kona-pkt-forwarder' },
    });
    expect(answer.error).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/restarts/),
    });
    expect(gateway.sent).toEqual([]);
  });

  it('runs a ping as a task and returns the gateway answer', async () => {
    const answer = await invoke('gateway-task:run', {
      gatewayId: 'gw-1',
      runId: 'run-ping',
      task: { task: 'ping', destination: '8.8.8.8' },
    });
    expect(answer.value).toEqual({ runId: 'run-ping', value: { packets_sent: 4, packets_recv: 3 } });
  });

  it('cancels a gateway task by its run id through call:cancel, aborting the command it waits on', async () => {
    const held = new Promise<AbortSignal | undefined>((resolve) => (gateway.onHold = resolve));
    const running = invoke('gateway-task:run', {
      gatewayId: 'gw-1',
      runId: 'run-held',
      task: { task: 'ping', destination: '8.8.8.8' },
    });
    const signal = await held;
    expect(await invoke('call:cancel', { callId: 'run-held' })).toEqual({ ok: true, value: null });
    expect(signal?.aborted).toBe(true);
    expect(await running).toMatchObject({ ok: false });
  });

  it('answers call:cancel for a call that has ended, or never was, by doing nothing', async () => {
    expect(await invoke('call:cancel', { callId: 'no-such-call' })).toEqual({ ok: true, value: null });
  });

  it('exports an HTML report of the visit that names the change and the ping, and returns it to download', async () => {
    const { runId, edit } = await readFirewall();
    await invoke('wizard:apply', {
      runId,
      edit: { ...edit, doSPrevention: { ...edit.doSPrevention, perMinLimit: 250 } },
    });
    await invoke('gateway-task:run', { gatewayId: 'gw-1', task: { task: 'ping', destination: '1.1.1.1' } });
    await invoke('visit:update', { site: 'Roof A' });
    const report = await invoke('report:export', { format: 'html' });
    expect(report.value.mimeType).toBe('text/html');
    const html = Buffer.from(report.value.base64, 'base64').toString('utf8');
    expect(html).toContain('Roof A');
    expect(html).toContain('250');
    expect(html).toContain('1.1.1.1');
    expect(html).not.toContain('login-password');
  });

  it('embeds a photo the visit holds, and no longer once it is taken out of the visit', async () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 1, 2, 3]).toString('base64');
    const added = await invoke('visit:photo-add', { caption: 'Mast <after>', base64: jpeg });
    expect(added.value).toMatchObject({ caption: 'Mast <after>', mimeType: 'image/jpeg', bytes: 9 });
    const html = async () =>
      Buffer.from((await invoke('report:export', { format: 'html' })).value.base64, 'base64').toString(
        'utf8',
      );
    expect(await html()).toContain(`<img src="data:image/jpeg;base64,${jpeg}" alt="Mast &lt;after>"/>`);
    await invoke('visit:photo-remove', { photoId: added.value.photoId });
    expect(await html()).not.toContain(jpeg);
  });

  it('refuses a file that is not a JPEG or PNG photo, saying so', async () => {
    const answer = await invoke('visit:photo-add', {
      caption: '',
      base64: Buffer.from('GIF89a').toString('base64'),
    });
    expect(answer.error).toMatchObject({
      code: 'INVALID_INPUT',
      message: 'Only JPEG and PNG photos can be attached.',
    });
  });

  it('refuses a PDF when no printer is attached, saying to export HTML', async () => {
    const answer = await invoke('report:export', { format: 'pdf' });
    expect(answer.error?.message).toContain('export HTML');
  });

  it('reads the audit entries of this profile', async () => {
    await invoke('gateway-task:run', { gatewayId: 'gw-1', task: { task: 'listBackups' } });
    const answer = await invoke('audit:read', { gatewayId: 'gw-1' });
    expect(answer.value.entries.map((entry: { name: string }) => entry.name)).toContain('getBackups');
  });
});

describe('fleet channels', () => {
  it('accounts for every gateway: done, and skipped when the list says offline', async () => {
    const started = await invoke('fleet:start', {
      change: { kind: 'pingTarget', ipAddr: '9.9.9.9' },
      targets: [{ gatewayId: 'gw-1' }, { gatewayId: 'gw-2', status: 'OFFLINE' }],
      confirmation: { gatewayCount: 2 },
    });
    expect(started.value.rows).toHaveLength(2);
    const finished = await new Promise<Loose>((resolve) => {
      const seen = events.find((event) => event.name === 'fleet:finished');
      if (seen) return resolve(seen.payload);
      services.events.on('fleet:finished', resolve);
    });
    expect(
      finished.rows.map((row: { gatewayId: string; status: string }) => [row.gatewayId, row.status]),
    ).toEqual([
      ['gw-1', 'done'],
      ['gw-2', 'skipped'],
    ]);
  });

  it('expands a whole gateway group into rows, an offline member skipped', async () => {
    gateway.groupGateways = [
      { id: 'gw-a', name: 'Roof A', status: 'ONLINE' },
      { id: 'gw-b', name: 'Roof B', status: 'OFFLINE' },
    ];
    const started = await invoke('fleet:start', {
      change: { kind: 'pingTarget', ipAddr: '9.9.9.9' },
      gatewayGroupId: 'group-1',
      confirmation: { gatewayCount: 2 },
    });
    const rows = started.value.rows as Array<{ name: string; status: string }>;
    expect(rows.map((row) => row.name)).toEqual(['Roof A', 'Roof B']);
    expect(rows[1]?.status).toBe('skipped');
  });

  it('previews the change, its count and the question before anything is sent', async () => {
    const answer = await invoke('fleet:preview', {
      change: { kind: 'pingTarget', ipAddr: '9.9.9.9' },
      targets: [{ gatewayId: 'gw-1' }, { gatewayId: 'gw-2', status: 'OFFLINE' }, { gatewayId: 'gw-1' }],
    });
    expect(answer.value).toEqual({
      gatewayCount: 2,
      offlineCount: 1,
      concurrency: 16,
      question:
        'Apply ping target 9.9.9.9 to 1 gateway? (1 more chosen but listed offline: skipped, nothing sent to it)',
      disruptions: [],
      guards: [],
    });
    expect(gateway.sent).toEqual([]);
  });

  it('previews an upgrade of 8 gateways as 2 at a time by default, and says all restart together at 8', async () => {
    const targets = Array.from({ length: 8 }, (_, index) => ({ gatewayId: `gw-${index}` }));
    const change = { kind: 'softwareUpgrade' };
    const byDefault = await invoke('fleet:preview', { change, targets });
    expect(byDefault.value.concurrency).toBe(2);
    expect(byDefault.value.disruptions).toEqual([
      expect.stringContaining('open terminals and tunnels to it drop'),
      'At most 2 of the 8 gateways restart at the same time (4 rounds): each is followed until it answers again with its new versions before the next one starts, and the others keep forwarding meanwhile.',
    ]);
    const allAtOnce = await invoke('fleet:preview', { change, targets, concurrency: 16 });
    expect(allAtOnce.value.concurrency).toBe(16);
    expect(allAtOnce.value.disruptions[1]).toBe(
      'All 8 gateways restart at the same time: the site has no coverage from any of them until they answer again (a few minutes; longer on a slow link).',
    );
    expect(gateway.sent).toEqual([]);
  });

  it('refuses a job without its confirmed count, and a firewall blocking ping without BLOCK PING', async () => {
    const targets = [{ gatewayId: 'gw-1' }, { gatewayId: 'gw-2' }];
    const unconfirmed = await invoke('fleet:start', {
      change: { kind: 'pingTarget', ipAddr: '9.9.9.9' },
      targets,
    });
    expect(unconfirmed.error).toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('confirm the change on 2 gateways first'),
    });
    const blockPing = { kind: 'firewall', patch: { ping: { enabled: false } } };
    const preview = await invoke('fleet:preview', { change: blockPing, targets });
    expect(preview.value.guards).toEqual([
      expect.objectContaining({ id: 'ping-lockout', confirmationText: 'BLOCK PING' }),
    ]);
    const untyped = await invoke('fleet:start', {
      change: blockPing,
      targets,
      confirmation: { gatewayCount: 2, acknowledged: true },
    });
    expect(untyped.error?.message).toContain('type "BLOCK PING" to confirm');
    expect(gateway.sent).toEqual([]);
  });

  it('refuses a job with no gateway chosen', async () => {
    const answer = await invoke('fleet:start', { change: { kind: 'apn', name: 'internet' } });
    expect(answer.error?.code).toBe('INVALID_INPUT');
  });

  it('refuses a ping target that is not an IP address before touching any gateway', async () => {
    const answer = await invoke('fleet:start', {
      change: { kind: 'pingTarget', ipAddr: 'not-an-ip' },
      targets: [{ gatewayId: 'gw-1' }],
    });
    expect(answer.error?.message).toContain('not an IP address');
    expect(gateway.sent).toEqual([]);
  });
});

describe('the SSH lockout guard and the terminals', () => {
  function terminalFactory(overrides: Partial<TerminalInfo> = {}): TerminalInfo {
    return {
      id: 'terminal-1',
      kind: 'ssh',
      title: 'gw-1 (reverse SSH)',
      state: 'open',
      bytesIn: 0,
      bytesOut: 0,
      gatewayId: 'gw-1',
      hostKeys: [],
      ...overrides,
    };
  }

  /** The wizard handlers over this test's services, with the terminal sessions given. */
  function handlersWith(terminals: TerminalInfo[]) {
    return createWizardsHandlers({
      sessions: services.sessions,
      gatewayTransport: services.gatewayTransport,
      cancellation: new CallCancellation(),
      events: services.events,
      audit: services.audit,
      terminals: () => ({ list: () => terminals }),
      addShutdownHook: (hook) => services.addShutdownHook(hook),
    });
  }

  async function reviewSshOff(terminals: TerminalInfo[]): Promise<string[]> {
    const handlers = handlersWith(terminals);
    const call = { channel: 'wizard:start' } as const;
    const { runId } = await handlers['wizard:start']({ wizard: 'firewall', gatewayId: 'gw-1' }, call);
    const { edit } = (await handlers['wizard:read']({ runId }, { channel: 'wizard:read' })) as {
      edit: ReturnType<typeof firewallFactory>;
    };
    const review = await handlers['wizard:review'](
      { runId, edit: { ...edit, ssh: { enabled: false } } },
      { channel: 'wizard:review' },
    );
    return review.guards.map((guard) => guard.confirmationText);
  }

  it('asks for DISABLE SSH while a terminal goes through SSH to the gateway', async () => {
    expect(await reviewSshOff([terminalFactory()])).toEqual(['DISABLE SSH']);
  });

  it('does not ask for DISABLE SSH when the only SSH terminal is closed or to another gateway', async () => {
    const terminals = [
      terminalFactory({ state: 'closed' }),
      terminalFactory({ id: 'terminal-2', gatewayId: 'gw-2' }),
    ];
    expect(await reviewSshOff(terminals)).toEqual([]);
  });
});
