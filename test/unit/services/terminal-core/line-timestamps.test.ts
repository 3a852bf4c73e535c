import { describe, expect, it } from 'vitest';
import { LineTimestamper } from '../../../../electron/services/terminal-core/line-timestamps';

describe('LineTimestamper', () => {
  it('stamps each line once even when it arrives in pieces', () => {
    const timestamper = new LineTimestamper({ now: () => new Date(2026, 0, 1, 13, 4, 5, 6).getTime() });
    const output = ['boot', 'ing\r\nready\r', '\n', '\r\n'].map((chunk) => timestamper.stamp(chunk)).join('');
    expect(output).toBe('[13:04:05.006] booting\r\n[13:04:05.006] ready\r\n\r\n');
  });
});
