import { EventEmitter } from 'node:events';
import { PassThrough, type Duplex } from 'node:stream';
import type { Client, ConnectConfig } from 'ssh2';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { KnownHosts } from '../../../../electron/services/ssh/known-hosts';
import { FORWARD_TIMEOUT_MS, TUNNEL_TIMEOUT_MS } from '../../../../electron/services/ssh/reverse-tunnel';
import type { ReverseSshStep } from '../../../../electron/services/ssh/reverse-connect-steps';
import { READY_TIMEOUT_MS } from '../../../../electron/services/ssh/ssh-connection';
import { SshService } from '../../../../electron/services/ssh/ssh-service';
import type { SshSession } from '../../../../electron/services/ssh/ssh-session';
import { stubOf } from '../../../helpers/stub';

const GATEWAY_ID = 'gw-0016c001f1500001';
const RELAY = { host: '127.0.0.1', port: 2222, username: 'relay', password: 'relay-secret' };
/** Fake seconds a connect may take here before a test calls it hung: every timeout of the service fits in it. */
const FAKE_PATIENCE_MS = 10 * 60_000;

/**
 * What listens on a relay port: nothing (`refused`), the gateway's live tunnel (`gateway`), a tunnel whose relay
 * connection went silent so the relay never opens the forward (`silent`, the simulator relay), or one the relay
 * still accepts for while its gateway answers nothing (`dead`, OpenSSH: the login then times out).
 */
type PortHolder = 'gateway' | 'silent' | 'dead';

/**
 * The relay, the gateway and the server as the service sees them, in memory: `runCommand` is the server, relay
 * clients and gateway clients are fakes of ssh2's Client driven by `ports`.
 */
class FakeField {
  readonly ports = new Map<number, PortHolder>();
  readonly commands: Array<{ command: string; sshRevPort?: number }> = [];
  readonly relayClients: FakeClient[] = [];
  /** The root password the gateway takes (its label's). */
  gatewayPassword = 'label-Pa55';
  /** How the next reverseSsh is answered (default: the gateway opens its tunnel). */
  answerReverseSsh: (port: number) => Promise<void> = async (port) => void this.ports.set(port, 'gateway');

  async runCommand(_gatewayId: string, command: string, body: Record<string, unknown>): Promise<unknown> {
    const sshRevPort = typeof body.sshRevPort === 'number' ? body.sshRevPort : undefined;
    this.commands.push({ command, ...(sshRevPort !== undefined ? { sshRevPort } : {}) });
    if (command === 'reverseSsh') await this.answerReverseSsh(sshRevPort!);
    if (command === 'stopReverseSsh') this.ports.clear();
    return {};
  }

  get commandNames(): string[] {
    return this.commands.map((command) => command.command);
  }

  /** The relay ports reverseSsh asked for, in order. */
  get requestedPorts(): number[] {
    return this.commands.flatMap((command) => (command.sshRevPort === undefined ? [] : [command.sshRevPort]));
  }
}

type HostVerifier = (key: Buffer, verify: (isValid: boolean) => void) => void;

/** A tunnel stream, knowing what it leads to. */
class TunnelStream extends PassThrough {
  constructor(readonly holder: PortHolder) {
    super();
  }
}

/** A fake of the parts of ssh2's Client the service uses. */
class FakeClient extends EventEmitter {
  #isClosed = false;
  #pending: Array<(error: Error) => void> = [];

  constructor(private readonly field: FakeField) {
    super();
  }

  connect(config: ConnectConfig): this {
    const holder = config.sock instanceof TunnelStream ? config.sock.holder : undefined;
    if (!holder) this.field.relayClients.push(this);
    void Promise.resolve().then(() =>
      (config.hostVerifier as HostVerifier | undefined)?.(
        Buffer.from(holder ? 'gateway-key' : 'relay-key'),
        (isValid: boolean) => {
          if (!isValid) return;
          if (holder === 'gateway' && config.password !== this.field.gatewayPassword) {
            this.emit(
              'error',
              Object.assign(new Error('All configured authentication methods failed'), {
                level: 'client-authentication',
              }),
            );
            return;
          }
          if (holder === 'dead') {
            // ssh2's readyTimeout: the gateway behind the tunnel never answers the handshake.
            setTimeout(() => {
              this.emit(
                'error',
                Object.assign(new Error('Timed out while waiting for handshake'), {
                  level: 'client-timeout',
                }),
              );
              this.end();
            }, config.readyTimeout ?? READY_TIMEOUT_MS);
            return;
          }
          this.emit('ready');
        },
      ),
    );
    return this;
  }

  forwardOut(
    _srcIp: string,
    _srcPort: number,
    _dstIp: string,
    port: number,
    // As ssh2 does, a failure comes with no stream.
    callback?: (error: Error | undefined, stream?: Duplex) => void,
  ): this {
    if (this.#isClosed) throw new Error('Not connected');
    const holder = this.field.ports.get(port);
    if (holder === 'silent') {
      this.#pending.push((error) => callback?.(error));
      return this;
    }
    void Promise.resolve().then(() =>
      holder
        ? callback?.(undefined, new TunnelStream(holder))
        : callback?.(
            Object.assign(new Error('(SSH) Channel open failure: Connection refused'), { reason: 2 }),
          ),
    );
    return this;
  }

  // ssh2's shell takes (callback), (window, callback) or (window, options, callback): the callback is the last.
  shell(...parts: unknown[]): this {
    const callback = parts.at(-1);
    const channel = Object.assign(new PassThrough(), {
      stderr: new EventEmitter(),
      setWindow: () => undefined,
    });
    if (typeof callback === 'function') void Promise.resolve().then(() => callback(undefined, channel));
    return this;
  }

  end(): this {
    this.drop();
    return this;
  }

  /** The link goes away: ssh2 says 'close', then fails the channels still opening. */
  drop(): void {
    if (this.#isClosed) return;
    this.#isClosed = true;
    this.emit('close');
    for (const fail of this.#pending.splice(0)) fail(new Error('No response from server'));
  }
}

let field: FakeField;
let service: SshService;
let steps: ReverseSshStep[];
/** Told each progress step of every connect (the place a test plays the user closing the tab). */
let onStep: ((step: ReverseSshStep) => void) | undefined;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  field = new FakeField();
  steps = [];
  onStep = undefined;
  const knownHosts = stubOf<KnownHosts>({
    verify: async (keyId: string) => ({
      keyId,
      fingerprint: `SHA256:${keyId}`,
      keyType: 'ssh-ed25519',
      isNew: false,
    }),
    replace: async () => undefined,
  });
  service = new SshService({
    knownHosts,
    runCommand: (gatewayId, command, body) => field.runCommand(gatewayId, command, body),
    // ssh2 types a forward's stream as a ClientChannel and always present; a forward is a plain Duplex, and
    // a failed one comes with none.
    // eslint-disable-next-line no-restricted-syntax -- ssh2's types are stricter than ssh2
    createClient: () => new FakeClient(field) as unknown as Client,
    connectSocket: () => new PassThrough(),
    random: () => 0.5,
  });
});

afterEach(() => {
  vi.useRealTimers();
});

/** Runs the fake clock until `work` settles, or FAKE_PATIENCE_MS have passed (then it counts as hung). */
async function settleOnFakeClock<T>(
  work: Promise<T>,
): Promise<{ value?: T; error?: Error; elapsedMs: number }> {
  let outcome: { value?: T; error?: Error } | undefined;
  work.then(
    (value) => (outcome = { value }),
    (error: Error) => (outcome = { error }),
  );
  const startedAt = Date.now();
  while (!outcome && Date.now() - startedAt < FAKE_PATIENCE_MS) await vi.advanceTimersByTimeAsync(100);
  if (!outcome) throw new Error(`still pending after ${FAKE_PATIENCE_MS / 1000} fake seconds`);
  return { ...outcome, elapsedMs: Date.now() - startedAt };
}

function openReverse(): Promise<SshSession> {
  return service.openReverse({
    gatewayId: GATEWAY_ID,
    relay: RELAY,
    rootPassword: 'label-Pa55',
    cols: 80,
    rows: 24,
    onProgress: (step) => {
      steps.push(step);
      onStep?.(step);
    },
  });
}

/** An open session whose link then dropped, with the tunnel it had left behind as `oldTunnel` says. */
async function failedSession(
  oldTunnel: PortHolder | 'gone',
): Promise<{ session: SshSession; oldPort: number }> {
  const session = (await settleOnFakeClock(openReverse())).value!;
  const oldPort = field.requestedPorts[0]!;
  if (oldTunnel === 'gone') field.ports.delete(oldPort);
  else field.ports.set(oldPort, oldTunnel);
  field.relayClients.at(-1)!.drop();
  await vi.advanceTimersByTimeAsync(0);
  expect(session.state).toBe('failed');
  steps.length = 0;
  return { session, oldPort };
}

describe('SshService reconnect when the old tunnel is dead', () => {
  it('asks for a new tunnel when the relay never opens a connection to the old one', async () => {
    const { session, oldPort } = await failedSession('silent');
    const { error } = await settleOnFakeClock(session.reconnect());
    expect(error).toBeUndefined();
    expect(session.state).toBe('open');
    expect(field.commandNames).toEqual(['reverseSsh', 'stopReverseSsh', 'reverseSsh']);
    expect(field.requestedPorts[1]).not.toBe(oldPort);
    expect(steps).toEqual([
      'relay',
      'reuse-tunnel',
      'stop-tunnel',
      'request-tunnel',
      'wait-for-tunnel',
      'gateway-login',
    ]);
  });

  it('asks for a new tunnel when the relay accepts for the old one but the gateway behind it never logs in', async () => {
    const { session, oldPort } = await failedSession('dead');
    const { error, elapsedMs } = await settleOnFakeClock(session.reconnect());
    expect(error).toBeUndefined();
    expect(session.state).toBe('open');
    expect(field.commandNames).toEqual(['reverseSsh', 'stopReverseSsh', 'reverseSsh']);
    expect(field.requestedPorts[1]).not.toBe(oldPort);
    // One handshake timeout on the old tunnel, not one per Reconnect.
    expect(elapsedMs).toBeLessThan(READY_TIMEOUT_MS + FORWARD_TIMEOUT_MS);
  });

  it('fails, saying the server could not reach the gateway, when the old tunnel is dead and no new one comes', async () => {
    const { session } = await failedSession('silent');
    field.answerReverseSsh = async () => {
      throw new Error(`Gateway ${GATEWAY_ID} did not answer reverseSsh within 30000 ms (it is offline)`);
    };
    const { error } = await settleOnFakeClock(session.reconnect());
    expect(error?.message).toMatch(
      /^The server could not ask gateway gw-\w+ for a tunnel: .*did not answer reverseSsh/,
    );
    expect(session.state).toBe('failed');
    expect(session.reason).toBe(error?.message);
  });

  it('reuses the old tunnel when it still leads to the gateway, without asking for another', async () => {
    const { session } = await failedSession('gateway');
    await settleOnFakeClock(session.reconnect());
    expect(session.state).toBe('open');
    expect(field.commandNames).toEqual(['reverseSsh']);
    expect(steps).toEqual(['relay', 'reuse-tunnel', 'gateway-login']);
  });
});

describe('SshService when the relay goes away while waiting for the tunnel', () => {
  it('fails at once with a message about the relay, not a tunnel timeout blaming the gateway', async () => {
    // The gateway says yes but its tunnel never shows up; a second into the wait the relay link drops.
    field.answerReverseSsh = async () => undefined;
    onStep = (step) => {
      if (step === 'wait-for-tunnel') setTimeout(() => field.relayClients.at(-1)!.drop(), 1_000);
    };
    const opening = openReverse();
    const { error, elapsedMs } = await settleOnFakeClock(opening);
    expect(error?.name).not.toBe('TunnelTimeoutError');
    expect(error?.message).toBe(
      `The connection to the relay ${RELAY.host}:${RELAY.port} was closed (while waiting for the gateway's tunnel).`,
    );
    expect(elapsedMs).toBeLessThan(TUNNEL_TIMEOUT_MS);
  });
});

describe('SshService when the user closes a session during a reconnect', () => {
  it('sends no reverseSsh once the tab is closed: stopReverseSsh is the last command', async () => {
    const { session } = await failedSession('gone');
    let closing: Promise<void> | undefined;
    onStep = (step) => {
      if (step === 'request-tunnel') closing = session.close();
    };
    const { error } = await settleOnFakeClock(session.reconnect());
    await settleOnFakeClock(closing!);
    expect(error).toBeUndefined();
    expect(session.state).toBe('closed');
    expect(field.commandNames).toEqual(['reverseSsh', 'stopReverseSsh']);
  });

  it('stops a tunnel whose reverseSsh was still on its way when the tab was closed', async () => {
    const { session } = await failedSession('gone');
    let answer: () => void = () => undefined;
    let closing: Promise<void> | undefined;
    field.answerReverseSsh = (port) =>
      new Promise<void>((resolve) => {
        closing = session.close();
        // The gateway opens the tunnel after the stop overtook the request.
        answer = () => resolve(void field.ports.set(port, 'gateway'));
      });
    const reconnecting = settleOnFakeClock(session.reconnect());
    await vi.advanceTimersByTimeAsync(0);
    answer();
    await reconnecting;
    await settleOnFakeClock(closing!);
    expect(field.commandNames).toEqual(['reverseSsh', 'reverseSsh', 'stopReverseSsh', 'stopReverseSsh']);
    expect(field.ports.size).toBe(0);
    expect(session.state).toBe('closed');
  });
});

describe('SshService reconnect with a new root password', () => {
  it('says the password it had was refused, then reconnects with the one given on Reconnect and keeps it', async () => {
    const { session } = await failedSession('gateway');
    field.gatewayPassword = 'new-label-Pa55';

    const refused = await settleOnFakeClock(session.reconnect());
    expect(refused.error).toMatchObject({ name: 'RootPasswordRequiredError' });
    expect(refused.error?.message).toMatch(/refused the root password entered\. Enter the one on its label/);
    expect(session.state).toBe('failed');

    const retried = await settleOnFakeClock(session.reconnect({ password: 'new-label-Pa55' }));
    expect(retried.error).toBeUndefined();
    expect(session.state).toBe('open');

    // The next drop reconnects with the new password, not the refused one.
    field.relayClients.at(-1)!.drop();
    await vi.advanceTimersByTimeAsync(0);
    expect((await settleOnFakeClock(session.reconnect())).error).toBeUndefined();
    expect(session.state).toBe('open');
  });
});
