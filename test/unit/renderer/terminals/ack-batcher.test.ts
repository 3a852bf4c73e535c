import { describe, expect, it } from 'vitest';
import { AckBatcher } from '../../../../renderer/src/views/terminals/ack-batcher';
import { formatHexLines } from '../../../../renderer/src/views/terminals/hex-view';

describe('AckBatcher', () => {
  it('acknowledges in batches while writes are still queued', () => {
    const sent: number[] = [];
    const batcher = new AckBatcher((bytes) => sent.push(bytes), 8_192);
    for (let index = 0; index < 10; index += 1) batcher.queued();
    for (let index = 0; index < 9; index += 1) batcher.written(1_000);
    expect(sent).toEqual([9_000]);
  });

  it('acknowledges everything left as soon as the write queue drains', () => {
    const sent: number[] = [];
    const batcher = new AckBatcher((bytes) => sent.push(bytes), 8_192);
    batcher.queued();
    batcher.queued();
    batcher.written(100);
    batcher.written(50);
    expect(sent).toEqual([150]);
  });

  it('acknowledges every byte exactly once over many writes', () => {
    const sent: number[] = [];
    const batcher = new AckBatcher((bytes) => sent.push(bytes), 8_192);
    let total = 0;
    for (let index = 0; index < 500; index += 1) {
      batcher.queued();
      if (index % 3 === 0) batcher.queued();
      const size = (index * 37) % 5_000;
      total += size;
      batcher.written(size);
      if (index % 3 === 0) batcher.written(0);
    }
    batcher.flush();
    expect(sent.reduce((sum, bytes) => sum + bytes, 0)).toBe(total);
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
