import { describe, expect, it } from 'vitest';
import {
  DATA_EVENT_INTERVAL_MS,
  DATA_EVENT_MAX_BYTES,
  OutputCoalescer,
  REPLAY_MAX_BYTES,
} from '../../../../electron/services/terminals/output-coalescer';

function createCoalescer() {
  let now = 0;
  const events: Buffer[] = [];
  const scheduled: { callback: () => void; delayMs: number }[] = [];
  const coalescer = new OutputCoalescer({
    emit: (data) => events.push(Buffer.from(data)),
    schedule: (callback, delayMs) => scheduled.push({ callback, delayMs }),
    now: () => now,
  });
  const runScheduled = () => {
    for (const { callback } of scheduled.splice(0)) callback();
  };
  return { coalescer, events, scheduled, runScheduled, advance: (ms: number) => (now += ms) };
}

describe('OutputCoalescer', () => {
  it('sends the chunks pushed before the next tick as one event, in order', () => {
    const { coalescer, events, runScheduled } = createCoalescer();
    coalescer.push(Buffer.from('ab'));
    coalescer.push(Buffer.from('cd'));
    expect(events).toEqual([]);
    runScheduled();
    expect(events.map(String)).toEqual(['abcd']);
  });

  it('sends a full event at once and keeps streaming events DATA_EVENT_INTERVAL_MS apart', () => {
    const { coalescer, events, scheduled, runScheduled, advance } = createCoalescer();
    coalescer.push(new Uint8Array(DATA_EVENT_MAX_BYTES + 10));
    expect(events.map((event) => event.byteLength)).toEqual([DATA_EVENT_MAX_BYTES]);
    expect(scheduled.map(({ delayMs }) => delayMs)).toEqual([DATA_EVENT_INTERVAL_MS]);
    advance(DATA_EVENT_INTERVAL_MS);
    runScheduled();
    expect(events.map((event) => event.byteLength)).toEqual([DATA_EVENT_MAX_BYTES, 10]);
  });

  it('replays the output sent, from the start of a line once it is longer than REPLAY_MAX_BYTES', () => {
    const { coalescer } = createCoalescer();
    const line = `${'x'.repeat(99)}\n`;
    for (let index = 0; index < (2 * REPLAY_MAX_BYTES) / line.length; index += 1) {
      coalescer.push(Buffer.from(line));
      coalescer.flush();
    }
    const replay = Buffer.from(coalescer.replay()).toString();
    expect(replay.length).toBeLessThanOrEqual(REPLAY_MAX_BYTES);
    expect(replay.length).toBeGreaterThan(REPLAY_MAX_BYTES - line.length);
    expect(replay.startsWith('x'.repeat(99))).toBe(true);
  });
});
