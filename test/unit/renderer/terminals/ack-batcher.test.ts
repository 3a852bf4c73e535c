import { describe, expect, it } from 'vitest';
import { ACK_IDLE_MS, AckBatcher } from '../../../../renderer/src/views/terminals/ack-batcher';
import { formatHexLines } from '../../../../renderer/src/views/terminals/hex-view';
import { ManualClock } from '../../../helpers/manual-clock';

describe('AckBatcher', () => {
  it('acknowledges in batches while writes are still queued', () => {
    const sent: number[] = [];
    const batcher = new AckBatcher((bytes) => sent.push(bytes), 8_192, new ManualClock());
    for (let index = 0; index < 10; index += 1) batcher.queued();
    for (let index = 0; index < 9; index += 1) batcher.written(1_000);
    expect(sent).toEqual([9_000]);
  });

  it('acknowledges what is left shortly after the write queue drains, not on every drain', () => {
    const sent: number[] = [];
    const clock = new ManualClock();
    const batcher = new AckBatcher((bytes) => sent.push(bytes), 256 * 1024, clock);
    batcher.queued();
    batcher.written(100_000);
    clock.advance(ACK_IDLE_MS - 1);
    // A flood's next chunk arrives and is written before the pause is over: still one acknowledgement.
    batcher.queued();
    batcher.written(50_000);
    expect(sent).toEqual([]);
    clock.advance(1);
    expect(sent).toEqual([150_000]);
    clock.advance(ACK_IDLE_MS * 10);
    expect(sent).toEqual([150_000]);
  });

  it('sends a full batch at once and leaves no pending pause behind it', () => {
    const sent: number[] = [];
    const clock = new ManualClock();
    const batcher = new AckBatcher((bytes) => sent.push(bytes), 8_192, clock);
    batcher.queued();
    batcher.written(5_000);
    batcher.queued();
    batcher.written(5_000);
    expect(sent).toEqual([10_000]);
    clock.advance(ACK_IDLE_MS);
    expect(sent).toEqual([10_000]);
  });

  it('acknowledges every byte exactly once over many writes', () => {
    const sent: number[] = [];
    const clock = new ManualClock();
    const batcher = new AckBatcher((bytes) => sent.push(bytes), 8_192, clock);
    let total = 0;
    for (let index = 0; index < 500; index += 1) {
      batcher.queued();
      if (index % 3 === 0) batcher.queued();
      const size = (index * 37) % 5_000;
      total += size;
      batcher.written(size);
      if (index % 3 === 0) batcher.written(0);
      clock.advance(index % 7);
    }
    batcher.flush();
    expect(sent.reduce((sum, bytes) => sum + bytes, 0)).toBe(total);
    expect(sent.every((bytes) => bytes > 0)).toBe(true);
  });
});

describe('hex view', () => {
  it('shows 16 bytes a line in hex with printable ASCII beside them', () => {
    const bytes = new TextEncoder().encode('Hello, gateway!\r\nOK');
    expect(formatHexLines(bytes)).toBe(
      '48 65 6c 6c 6f 2c 20 67 61 74 65 77 61 79 21 0d  |Hello, gateway!.|\r\n' +
        '0a 4f 4b' +
        ' '.repeat(39) +
        '  |.OK|\r\n',
    );
  });
});
