import type { ClientChannel } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { ReceiveWindow } from '../../../../electron/services/ssh/receive-window';

const SSH2_INITIAL_WINDOW = 2 * 1024 * 1024;

/**
 * The ssh2 internals ReceiveWindow steers, acting as ssh2 does: data lowers `incoming.window`, and at half the
 * window ssh2 asks its protocol to adjust it back up to 2 MB. `sent` is what reached the peer.
 */
function createChannel(openedWith = SSH2_INITIAL_WINDOW) {
  const sent: number[] = [];
  // A channel opened with less than ssh2's 2 MB: the difference counts as already received.
  let received = SSH2_INITIAL_WINDOW - openedWith;
  const protocol = {
    channelWindowAdjust: (_id: number, amount: number) => void sent.push(amount),
    session: (_localId: number, _window: number, _maxPacket: number): void => undefined,
  };
  const channel = {
    incoming: { id: 3, window: SSH2_INITIAL_WINDOW },
    outgoing: { id: 7 },
    _client: { _protocol: protocol },
  };
  return {
    // eslint-disable-next-line no-restricted-syntax -- ssh2's internals the window steers, which its types do not declare
    channel: channel as unknown as ClientChannel,
    client: channel._client,
    protocol,
    sent,
    /** The peer's real window: what it may still send. */
    peerWindow: () => SSH2_INITIAL_WINDOW + sent.reduce((sum, amount) => sum + amount, 0) - received,
    receive(bytes: number) {
      received += bytes;
      channel.incoming.window -= bytes;
      if (channel.incoming.window <= SSH2_INITIAL_WINDOW / 2) {
        const amount = SSH2_INITIAL_WINDOW - channel.incoming.window;
        channel.incoming.window += amount;
        protocol.channelWindowAdjust(channel.outgoing.id, amount);
      }
    },
  };
}

describe('ReceiveWindow', () => {
  it('lets the peer send no more than the window beyond what the renderer acknowledged', () => {
    const link = createChannel();
    const window = ReceiveWindow.attach(link.channel, { fixedBytes: 256 * 1024 })!;
    for (let chunk = 0; chunk < 100; chunk += 1) if (link.peerWindow() > 0) link.receive(32 * 1024);
    expect(link.peerWindow()).toBe(0);
    expect(link.sent).toEqual([]);
    window.acknowledged(SSH2_INITIAL_WINDOW - 100 * 1024);
    expect(link.sent.reduce((sum, amount) => sum + amount, 0)).toBe(156 * 1024);
    expect(window.outstanding).toBe(256 * 1024);
  });

  it('counts no acknowledgement beyond what the channel received: the same output acknowledged twice earns nothing', () => {
    const link = createChannel();
    const window = ReceiveWindow.attach(link.channel, { fixedBytes: 256 * 1024 })!;
    link.receive(SSH2_INITIAL_WINDOW);
    window.acknowledged(SSH2_INITIAL_WINDOW);
    expect(link.peerWindow()).toBe(256 * 1024);
    // A second page acknowledges the same output.
    window.acknowledged(SSH2_INITIAL_WINDOW);
    expect(link.peerWindow()).toBe(256 * 1024);
    expect(window.outstanding).toBe(256 * 1024);
  });

  it('passes every held adjustment on when detached', () => {
    const link = createChannel();
    const window = ReceiveWindow.attach(link.channel, { fixedBytes: 256 * 1024 })!;
    link.receive(SSH2_INITIAL_WINDOW);
    window.detach();
    expect(link.peerWindow()).toBe(SSH2_INITIAL_WINDOW);
    link.receive(SSH2_INITIAL_WINDOW / 2);
    expect(link.sent).toHaveLength(2);
  });

  it('settles near what xterm writes in the echo delay target while the window holds the gateway back', () => {
    let now = 0;
    const link = createChannel();
    const window = ReceiveWindow.attach(link.channel, { echoDelayTargetMs: 100, now: () => now })!;
    const sizes: number[] = [];
    // xterm writes 20 MB/s: every 10 ms it acknowledges 200 kB, and the gateway sends whatever the window allows.
    for (let step = 0; step < 400; step += 1) {
      while (link.peerWindow() > 0) link.receive(Math.min(32 * 1024, link.peerWindow()));
      now += 10;
      window.acknowledged(Math.min(200_000, window.outstanding));
      if (step >= 200) sizes.push(window.windowBytes);
    }
    // 20 MB/s × 100 ms = 2 MB.
    const mean = sizes.reduce((sum, size) => sum + size, 0) / sizes.length;
    expect(mean).toBeGreaterThan(1_500_000);
    expect(mean).toBeLessThan(2_500_000);
  });

  it('holds its size through a round trip of late acknowledgements instead of collapsing', () => {
    let now = 0;
    const link = createChannel();
    const window = ReceiveWindow.attach(link.channel, { echoDelayTargetMs: 80, now: () => now })!;
    // Bytes reach xterm 20 ms after the gateway sends them; xterm writes 40 kB a millisecond (40 MB/s) and
    // acknowledges in batches of 128 kB, many to a round trip, as the page does.
    const inFlight: Array<{ bytes: number; arrivesAt: number }> = [];
    let backlog = 0;
    let unacknowledged = 0;
    const sizes: number[] = [];
    for (let step = 0; step < 3_000; step += 1) {
      now = step;
      const sending = link.peerWindow();
      if (sending > 0) {
        link.receive(sending);
        inFlight.push({ bytes: sending, arrivesAt: now + 20 });
      }
      while (inFlight.length > 0 && inFlight[0]!.arrivesAt <= now) backlog += inFlight.shift()!.bytes;
      const written = Math.min(backlog, 40_000);
      backlog -= written;
      unacknowledged += written;
      if (unacknowledged >= 128_000 || (backlog === 0 && unacknowledged > 0)) {
        window.acknowledged(unacknowledged);
        unacknowledged = 0;
      }
      if (step >= 1_000) sizes.push(window.windowBytes);
    }
    // 40 MB/s × 80 ms = 3.2 MB. Cut at every late acknowledgement, the window swung between its 512 kB floor
    // and 4 MB.
    const mean = sizes.reduce((sum, size) => sum + size, 0) / sizes.length;
    expect(mean).toBeGreaterThan(2_600_000);
    expect(mean).toBeLessThan(4_000_000);
    expect(Math.min(...sizes)).toBeGreaterThan(2_000_000);
  });

  it('keeps its smallest size for a slow page', () => {
    let now = 0;
    const link = createChannel();
    const window = ReceiveWindow.attach(link.channel, {
      echoDelayTargetMs: 100,
      minBytes: 512 * 1024,
      now: () => now,
    })!;
    for (let step = 0; step < 300; step += 1) {
      while (link.peerWindow() > 0) link.receive(Math.min(32 * 1024, link.peerWindow()));
      now += 10;
      window.acknowledged(Math.min(10_000, window.outstanding));
    }
    expect(window.windowBytes).toBe(512 * 1024);
  });

  it('opens a session channel with a small first window and steers from there', () => {
    const link = createChannel(512 * 1024);
    const opened: number[] = [];
    const session = link.protocol.session;
    link.protocol.session = (localId, window, maxPacket) => {
      opened.push(window);
      session(localId, window, maxPacket);
    };
    ReceiveWindow.openWithSmallWindow(link.client, 512 * 1024, () =>
      link.protocol.session(3, SSH2_INITIAL_WINDOW, 32_768),
    );
    expect(opened).toEqual([512 * 1024]);
    const window = ReceiveWindow.attach(link.channel, { fixedBytes: 1024 * 1024 })!;
    expect(window.peerWindow).toBe(512 * 1024);
    expect(window.outstanding).toBe(512 * 1024);
    window.acknowledged(0);
    expect(link.peerWindow()).toBe(1024 * 1024);
  });

  it('leaves a channel alone when ssh2 is not built the way it expects', () => {
    // eslint-disable-next-line no-restricted-syntax -- a channel unlike ssh2's is what the test is about
    expect(ReceiveWindow.attach({ incoming: {} } as unknown as ClientChannel)).toBeUndefined();
  });
});
