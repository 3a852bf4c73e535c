import type { ClientChannel } from 'ssh2';
import { describe, expect, it } from 'vitest';
import { ReceiveWindow } from '../../../../electron/services/ssh/receive-window';

const SSH2_INITIAL_WINDOW = 2 * 1024 * 1024;

/**
 * The ssh2 internals ReceiveWindow steers, acting as ssh2 does: data lowers `incoming.window`, and at half the
 * window ssh2 asks its protocol to adjust it back up to 2 MB. `sent` is what reached the peer.
 */
function createChannel() {
  const sent: number[] = [];
  let received = 0;
  const protocol = { channelWindowAdjust: (_id: number, amount: number) => void sent.push(amount) };
  const channel = {
    incoming: { window: SSH2_INITIAL_WINDOW },
    outgoing: { id: 7 },
    _client: { _protocol: protocol },
  };
  return {
    channel: channel as unknown as ClientChannel,
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

  it('passes every held adjustment on when detached', () => {
    const link = createChannel();
    const window = ReceiveWindow.attach(link.channel, { fixedBytes: 256 * 1024 })!;
    link.receive(SSH2_INITIAL_WINDOW);
    window.detach();
    expect(link.peerWindow()).toBe(SSH2_INITIAL_WINDOW);
    link.receive(SSH2_INITIAL_WINDOW / 2);
    expect(link.sent).toHaveLength(2);
  });

  it('grows the window to the rate xterm writes at times the echo delay target while the window holds it back', () => {
    let now = 0;
    const link = createChannel();
    const window = ReceiveWindow.attach(link.channel, { echoDelayTargetMs: 100, now: () => now })!;
    // xterm writes 20 MB/s: every 10 ms it acknowledges 200 kB, and the gateway sends whatever the window allows.
    for (let step = 0; step < 300; step += 1) {
      while (link.peerWindow() > 0) link.receive(Math.min(32 * 1024, link.peerWindow()));
      now += 10;
      window.acknowledged(Math.min(200_000, window.outstanding));
    }
    expect(window.windowBytes).toBeGreaterThan(1_800_000);
    expect(window.windowBytes).toBeLessThan(2_200_000);
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

  it('leaves a channel alone when ssh2 is not built the way it expects', () => {
    expect(ReceiveWindow.attach({ incoming: {} } as unknown as ClientChannel)).toBeUndefined();
  });
});
