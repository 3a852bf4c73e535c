import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ClientChannel } from 'ssh2';
import { describe, expect, it, vi } from 'vitest';
import { formatClockTime } from '../../../../electron/services/terminal-core/line-timestamps';
import { SessionLog } from '../../../../electron/services/terminal-core/session-log';
import {
  SshSession,
  type SshLink,
  type SshLinkEnd,
  type SshSessionOptions,
} from '../../../../electron/services/ssh/ssh-session';

/** A stand-in for an ssh2 shell channel: a stream whose writes are recorded. */
class FakeChannel extends PassThrough {
  readonly stderr = new EventEmitter();
  readonly written: Buffer[] = [];
  readonly windows: Array<[number, number]> = [];

  constructor() {
    super();
    this.on('data', () => undefined);
  }

  override write(chunk: unknown): boolean {
    this.written.push(Buffer.from(chunk as Uint8Array));
    return true;
  }

  setWindow(rows: number, cols: number): void {
    this.windows.push([cols, rows]);
  }

  /** Sends bytes to the session as if the gateway printed them. */
  print(text: string): void {
    this.emit('data', Buffer.from(text));
  }
}

interface FakeLink extends SshLink {
  channel: ClientChannel & FakeChannel;
  drop(end: SshLinkEnd): void;
  isEnded: boolean;
}

function createFakeLink(): FakeLink {
  let drop: (end: SshLinkEnd) => void = () => undefined;
  const link: FakeLink = {
    channel: new FakeChannel() as ClientChannel & FakeChannel,
    hostKeys: [],
    lost: new Promise((resolve) => (drop = resolve)),
    end: () => {
      link.isEnded = true;
    },
    drop: (end) => drop(end),
    isEnded: false,
  };
  return link;
}

function createSession(overrides: Partial<SshSessionOptions> = {}) {
  const links: FakeLink[] = [];
  const connect = vi.fn(async () => {
    const link = createFakeLink();
    links.push(link);
    return link;
  });
  const onClose = vi.fn(async () => undefined);
  const session = new SshSession({
    kind: 'reverse',
    title: 'gw (reverse SSH)',
    gatewayId: 'gw',
    cols: 80,
    rows: 24,
    connect,
    onClose,
    highWatermark: 1_000,
    lowWatermark: 100,
    ...overrides,
  });
  return { session, links, connect, onClose };
}

describe('SshSession', () => {
  it('is open after open() and passes the gateway output on with its byte count', async () => {
    const { session, links } = createSession();
    const received: string[] = [];
    session.on('data', (chunk) => received.push(Buffer.from(chunk).toString()));
    await session.open();
    links[0]!.channel.print('root@gw:~# ');
    expect(session.state).toBe('open');
    expect(received).toEqual(['root@gw:~# ']);
    expect(session.bytesIn).toBe(11);
  });

  it('opens without a log, and says why, when no log file can be made', async () => {
    const { session } = createSession({
      openLog: () => SessionLog.tryOpen({ logsDir: '/dev/null/logs', gateway: 'gw' }),
    });
    await session.open();
    expect(session.state).toBe('open');
    expect(session.logPath).toBeUndefined();
    expect(session.logProblem).toMatch(
      /^Not logged: no log file could be made in \/dev\/null\/logs \(.*ENOTDIR/,
    );
  });

  it('sends keystrokes to the channel and counts them', async () => {
    const { session, links } = createSession();
    await session.open();
    session.write('ls\r');
    expect(Buffer.concat(links[0]!.channel.written).toString()).toBe('ls\r');
    expect(session.bytesOut).toBe(3);
  });

  it('pauses the channel at the high watermark and resumes when the renderer catches up', async () => {
    const { session, links } = createSession();
    await session.open();
    const channel = links[0]!.channel;
    channel.print('x'.repeat(1_000));
    expect(channel.isPaused()).toBe(true);
    session.acknowledge(950);
    expect(channel.isPaused()).toBe(false);
  });

  it('follows the window size', async () => {
    const { session, links } = createSession();
    await session.open();
    session.resize(132, 43);
    expect(links[0]!.channel.windows).toEqual([[132, 43]]);
  });

  it('fails with the reason when the link drops', async () => {
    const { session, links } = createSession();
    await session.open();
    const states: string[] = [];
    session.on('state', (state, reason) => states.push(`${state}: ${reason}`));
    links[0]!.drop({ reason: 'Lost the relay: read ECONNRESET', isRemoteExit: false });
    await vi.waitFor(() => expect(session.state).toBe('failed'));
    expect(states).toEqual(['failed: Lost the relay: read ECONNRESET']);
    expect(links[0]!.isEnded).toBe(true);
  });

  it('reconnects after a drop with the last window size, handing the connect a new password given', async () => {
    const { session, links, connect } = createSession();
    await session.open();
    session.resize(100, 30);
    links[0]!.drop({ reason: 'dropped', isRemoteExit: false });
    await vi.waitFor(() => expect(session.state).toBe('failed'));
    await session.reconnect({ password: 'from-the-label' });
    expect(session.state).toBe('open');
    expect(connect).toHaveBeenLastCalledWith({ cols: 100, rows: 30 }, expect.any(AbortSignal), {
      password: 'from-the-label',
    });
    links[1]!.channel.print('back');
    expect(session.bytesIn).toBe(4);
  });

  it('closes instead of failing when the remote shell exits, and runs the close hook', async () => {
    const { session, links, onClose } = createSession();
    await session.open();
    links[0]!.drop({ reason: 'The shell exited (code 0).', isRemoteExit: true });
    await vi.waitFor(() => expect(session.state).toBe('closed'));
    expect(session.reason).toBe('The shell exited (code 0).');
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('fails with the connect error and rejects open()', async () => {
    const { session } = createSession({
      connect: async () => Promise.reject(new Error('The relay refused the password.')),
    });
    await expect(session.open()).rejects.toThrow('The relay refused the password.');
    expect(session.state).toBe('failed');
    expect(session.reason).toBe('The relay refused the password.');
  });

  it('ignores keystrokes while it is not open', async () => {
    const { session, links } = createSession();
    await session.open();
    links[0]!.drop({ reason: 'dropped', isRemoteExit: false });
    await vi.waitFor(() => expect(session.state).toBe('failed'));
    session.write('lost');
    expect(links[0]!.channel.written).toEqual([]);
    expect(session.bytesOut).toBe(0);
  });

  it('ends the link, runs the close hook once and emits closed on close()', async () => {
    const { session, links, onClose } = createSession();
    await session.open();
    const closed = vi.fn();
    session.on('closed', closed);
    await session.close();
    await session.close();
    expect(links[0]!.isEnded).toBe(true);
    expect(onClose).toHaveBeenCalledOnce();
    expect(closed).toHaveBeenCalledOnce();
  });

  it('still closes when the close hook fails, and says so in the reason', async () => {
    const { session } = createSession({
      onClose: async () => Promise.reject(new Error('408 gateway timeout')),
    });
    await session.open();
    await session.close();
    expect(session.state).toBe('closed');
    expect(session.reason).toMatch(/did not confirm the tunnel was stopped: 408 gateway timeout/);
  });

  it('says closed again, with the warning, when stopping the tunnel fails after the shell exited', async () => {
    const { session, links } = createSession({
      onClose: async () => Promise.reject(new Error('408 gateway timeout')),
    });
    await session.open();
    const states: string[] = [];
    session.on('state', (state, reason) => states.push(`${state}: ${reason}`));
    const closed = new Promise((resolve) => session.once('closed', resolve));
    links[0]!.drop({ reason: 'The shell exited (code 0).', isRemoteExit: true });
    await closed;
    expect(states).toEqual([
      'closed: The shell exited (code 0).',
      'closed: The shell exited (code 0). The gateway did not confirm the tunnel was stopped: 408 gateway timeout',
    ]);
    expect(session.closeWarning).toBe(
      'The gateway did not confirm the tunnel was stopped: 408 gateway timeout',
    );
  });

  it('lets a second close() wait for the first one to stop the tunnel', async () => {
    let stopTunnel: () => void = () => undefined;
    const { session } = createSession({
      onClose: () => new Promise<void>((resolve) => (stopTunnel = resolve)),
    });
    await session.open();
    const first = session.close();
    let isSecondDone = false;
    const second = session.close().then(() => (isSecondDone = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(isSecondDone).toBe(false);
    stopTunnel();
    await Promise.all([first, second]);
    expect(isSecondDone).toBe(true);
  });

  it('tells a connect in flight to stop when closed, and open() rejects saying it was closed', async () => {
    let signal: AbortSignal | undefined;
    const { session } = createSession({
      connect: (_size, given) => {
        signal = given;
        return new Promise<never>(() => undefined);
      },
    });
    const opening = session.open();
    await vi.waitFor(() => expect(signal).toBeDefined());
    await session.close();
    expect(signal!.aborted).toBe(true);
    await expect(opening).rejects.toMatchObject({ name: 'SessionClosedError' });
  });

  it('refuses to reconnect once closed', async () => {
    const { session } = createSession();
    await session.open();
    await session.close();
    await expect(session.reconnect()).rejects.toThrow(/closed/);
  });
});

describe('SshSession after a failed open', () => {
  it('keeps the failure as its reason when closed', async () => {
    const session = new SshSession({
      kind: 'reverse',
      title: 'gw',
      cols: 80,
      rows: 24,
      connect: async () => Promise.reject(new Error('Gateway gw did not open its tunnel')),
    });
    await session.open().catch(() => undefined);
    await session.close();
    expect(session.state).toBe('closed');
    expect(session.reason).toBe('Gateway gw did not open its tunnel');
  });
});

describe('SshSession with per-line timestamps', () => {
  const AT = new Date(2026, 10, 22, 9, 15, 30, 250);
  const STAMP = `[${formatClockTime(AT)}] `;

  /** Gives the fake channel the ssh2 internals the ReceiveWindow steers, and records the window it grants. */
  function steerable(channel: FakeChannel, window: number) {
    const granted: number[] = [];
    const protocol = { channelWindowAdjust: (_id: number, amount: number) => granted.push(amount) };
    Object.assign(channel, { incoming: { window }, outgoing: { id: 7 }, _client: { _protocol: protocol } });
    return { granted, protocol };
  }

  /** An open session with timestamps whose 100 kB receive window is steered; `shown()` counts the bytes it emitted. */
  async function openStampedSteeredSession() {
    const link = createFakeLink();
    const { granted, protocol } = steerable(link.channel, 100_000);
    const { session } = createSession({
      timestamps: true,
      clock: { now: () => AT.getTime() },
      highWatermark: 10_000_000,
      lowWatermark: 1_000_000,
      receiveWindowBytes: 100_000,
      connect: async () => link,
    });
    let shown = 0;
    session.on('data', (chunk) => (shown += chunk.length));
    await session.open();
    return { session, link, granted, protocol, shown: () => shown };
  }

  it('stamps each line it shows with the local time, once per line across chunks', async () => {
    const { session, links } = createSession({ timestamps: true, clock: { now: () => AT.getTime() } });
    const received: string[] = [];
    session.on('data', (chunk) => received.push(Buffer.from(chunk).toString()));
    await session.open();
    links[0]!.channel.print('Linux gw 5.4\r\nup');
    links[0]!.channel.print('time\r\n');
    expect(received.join('')).toBe(`${STAMP}Linux gw 5.4\r\n${STAMP}uptime\r\n`);
    expect(session.bytesIn).toBe('Linux gw 5.4\r\nuptime\r\n'.length);
  });

  it('keeps a character split across chunks whole', async () => {
    const { session, links } = createSession({ timestamps: true, clock: { now: () => AT.getTime() } });
    const received: Buffer[] = [];
    session.on('data', (chunk) => received.push(Buffer.from(chunk)));
    await session.open();
    const degrees = Buffer.from('42 °C\n');
    links[0]!.channel.emit('data', degrees.subarray(0, 4));
    links[0]!.channel.emit('data', degrees.subarray(4));
    expect(Buffer.concat(received).toString()).toBe(`${STAMP}42 °C\n`);
  });

  it('counts acknowledgements in the bytes it showed, stamps included', async () => {
    const { session, links } = createSession({ timestamps: true, clock: { now: () => AT.getTime() } });
    let shown = 0;
    session.on('data', (chunk) => (shown += chunk.length));
    await session.open();
    const channel = links[0]!.channel;
    channel.print('x'.repeat(79).concat('\n').repeat(12));
    expect(shown).toBe(12 * (80 + STAMP.length));
    expect(channel.isPaused()).toBe(true);
    session.acknowledge(shown);
    expect(session.unacknowledged).toBe(0);
    expect(channel.isPaused()).toBe(false);
  });

  it('lets the gateway send only as many more bytes as it sent behind the acknowledged output', async () => {
    const { session, link, granted, protocol, shown } = await openStampedSteeredSession();
    link.channel.print('x'.repeat(99).concat('\n').repeat(500));
    // ssh2 tops its window up as it reads; the receive window holds that back until the renderer acknowledges.
    protocol.channelWindowAdjust(7, 100_000);
    expect(granted).toEqual([]);
    session.acknowledge(shown());
    expect(shown()).toBe(50_000 + 500 * STAMP.length);
    expect(granted).toEqual([50_000]);
  });

  it('never lets the gateway ahead of a partly acknowledged stamped chunk', async () => {
    const { session, link, granted, protocol, shown } = await openStampedSteeredSession();
    link.channel.print('x'.repeat(99).concat('\n').repeat(1_000));
    protocol.channelWindowAdjust(7, 100_000);
    const half = Math.floor(shown() / 2);
    session.acknowledge(half);
    expect(granted.reduce((sum, amount) => sum + amount, 0)).toBeLessThanOrEqual(50_000);
    session.acknowledge(shown() - half);
    expect(granted.reduce((sum, amount) => sum + amount, 0)).toBe(100_000);
  });
});

describe('SshSession receive window', () => {
  /**
   * An open session whose fake channel has the ssh2 internals the ReceiveWindow steers, behaving as ssh2 does:
   * `receive()` lowers the channel's window, and ssh2 at once asks to top it up again (which the window holds back).
   */
  async function openSteeredSession() {
    const link = createFakeLink();
    const granted: number[] = [];
    const protocol = { channelWindowAdjust: (_id: number, amount: number) => void granted.push(amount) };
    const incoming = { window: 100_000 };
    Object.assign(link.channel, { incoming, outgoing: { id: 7 }, _client: { _protocol: protocol } });
    const { session } = createSession({
      highWatermark: 10_000_000,
      lowWatermark: 1_000_000,
      receiveWindowBytes: 100_000,
      connect: async () => link,
    });
    await session.open();
    const receive = (bytes: number) => {
      incoming.window -= bytes;
      link.channel.print('x'.repeat(bytes));
      incoming.window += bytes;
      protocol.channelWindowAdjust(7, bytes);
    };
    return { session, granted, receive };
  }

  it('gives the gateway no credit for late acknowledgements of output already written off', async () => {
    const { session, granted, receive } = await openSteeredSession();
    receive(60_000);
    // The page reloads: main writes off what it owed, then the old page's acknowledgements still come in.
    session.acknowledge(session.unacknowledged);
    session.acknowledge(60_000);
    expect(granted).toEqual([60_000]);
    // The gateway sends all it may; xterm has written none of it, so it may send no more.
    receive(100_000);
    expect(granted).toEqual([60_000]);
  });
});
