import { describe, expect, it } from 'vitest';
import { TriageMarkerFilter } from '../../../../electron/services/serial/triage-marker-filter';

/** Feeds `text` through a filter in chunks of `size` characters and returns what it lets through. */
function filterInChunks(text: string, size: number, token = 'ab12'): string {
  const filter = new TriageMarkerFilter(token);
  let shown = '';
  for (let start = 0; start < text.length; start += size)
    shown += Buffer.from(filter.filter(Buffer.from(text.slice(start, start + size), 'latin1'))).toString(
      'latin1',
    );
  return shown + Buffer.from(filter.flush()).toString('latin1');
}

const SESSION = [
  'root@kona:~# uptime; echo __FK_END_ab12-1_$?\r\n',
  ' 10:00:00 up 17 min,  load average: 0.00\r\n',
  '__FK_END_ab12-1_0\r\n',
  'root@kona:~# logread -f; echo __FK_END_ab12-15_$?\r\n',
  '^C\r\nroot@kona:~# echo __FK_SYNC_ab12-15\r\n',
  '__FK_SYNC_ab12-15\r\n',
  'root@kona:~# ',
].join('');
const SHOWN = [
  'root@kona:~# uptime\r\n',
  ' 10:00:00 up 17 min,  load average: 0.00\r\n',
  'root@kona:~# logread -f\r\n',
  '^C\r\nroot@kona:~# \r\n',
  'root@kona:~# ',
].join('');

describe('TriageMarkerFilter', () => {
  it('shows the commands and their output without the end markers', () => {
    expect(filterInChunks(SESSION, SESSION.length)).toBe(SHOWN);
  });

  it('finds markers split across chunks of any size', () => {
    for (const size of [1, 2, 3, 5, 7, 13, 64]) expect(filterInChunks(SESSION, size)).toBe(SHOWN);
  });

  it('leaves markers of another run and every other byte alone', () => {
    const text = 'echo __FK_END_ffff-1_$? \xff\x00\x1b[0m done\r\n';
    expect(filterInChunks(text, 4)).toBe(text);
  });
});
