import { describe, expect, it } from 'vitest';
import { LineTimestamper } from '../../../../electron/services/terminal-core/line-timestamps';

describe('LineTimestamper', () => {
  it('stamps each line once even when it arrives in pieces', () => {
    const timestamper = new LineTimestamper({ now: () => new Date(2026, 0, 1, 13, 4, 5, 6).getTime() });
    const output = ['boot', 'ing\r\nready\r', '\n', '\r\n'].map((chunk) => timestamper.stamp(chunk)).join('');
    expect(output).toBe('[13:04:05.006] booting\r\n[13:04:05.006] ready\r\n\r\n');
  });

  it('stamps bytes the same way, leaving a UTF-8 character split across chunks whole', () => {
    const timestamper = new LineTimestamper({ now: () => new Date(2026, 0, 1, 13, 4, 5, 6).getTime() });
    const bytes = new TextEncoder().encode('é1\r\né2\r\n');
    const output = Buffer.concat(
      [bytes.subarray(0, 1), bytes.subarray(1)].map((chunk) => timestamper.stampBytes(chunk)),
    );
    expect(output.toString('utf8')).toBe('[13:04:05.006] é1\r\n[13:04:05.006] é2\r\n');
  });
});
