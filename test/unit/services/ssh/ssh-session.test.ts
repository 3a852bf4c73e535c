import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type { ClientChannel } from 'ssh2';
import { describe, expect, it, vi } from 'vitest';
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

  it('reconnects after a drop with the last window size', async () => {
    const { session, links, connect } = createSession();
    await session.open();
    session.resize(100, 30);
    links[0]!.drop({ reason: 'dropped', isRemoteExit: false });
    await vi.waitFor(() => expect(session.state).toBe('failed'));
    await session.reconnect();
    expect(session.state).toBe('open');
    expect(connect).toHaveBeenLastCalledWith({ cols: 100, rows: 30 });
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
