import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';
import { triageCheckWords, triageFindingWords } from '../../../../electron/shared/terminal/triage-words';
import {
  cleanConsoleText,
  consoleLines,
  findLogErrors,
  findPacketForwarders,
  MAX_CONSOLE_TEXT_CHARACTERS,
  MAX_LINE_CHARACTERS,
  parseIfconfig,
  parseIpAddr,
  parseIpRoute,
  parseModemStatus,
  parsePing,
  parseResolvConf,
  parseRouteTable,
  parseSystemVersion,
  parseEpochSeconds,
  parseUptime,
} from '../../../../electron/shared/terminal/triage-parsers';
import { readingsWithOutput } from '../../../helpers/triage-readings';

const HALF_MEGABYTE = 512 * 1024;

/** Every parser on one text, as the triage runs them; the strings they return, for length checks. */
function parseEverything(text: string): string[] {
  const interfaces = [...parseIfconfig(text), ...parseIpAddr(text)];
  const routes = [...parseIpRoute(text), ...parseRouteTable(text)];
  const ping = parsePing(text);
  const modem = parseModemStatus(text);
  return [
    ...interfaces.flatMap((item) => [item.name, item.macAddress ?? '', ...item.ipv4, ...item.ipv6]),
    ...routes.flatMap((route) => [route.device, route.via ?? '']),
    ...parseResolvConf(text),
    ...(ping?.error ? [ping.error] : []),
    parseUptime(text) ?? '',
    ...parseSystemVersion(text).flatMap((version) => [version.name, version.version]),
    ...findLogErrors(text),
    ...Object.values(modem ?? {}),
    ...findPacketForwarders(text),
    String(parseEpochSeconds(text) ?? ''),
  ];
}

/** Pieces of console output that drove a regex to try a long run from each of its characters. */
const HOSTILE_PIECES = [
  '1',
  '9',
  ' ',
  '\t',
  '\r',
  '\n',
  '\b',
  ':',
  '|',
  '.',
  ',',
  '@',
  '\x1b[',
  '\x1b]',
  '\x07',
  '\ufffd',
  'up ',
  'inet ',
  'inet6 ',
  'Mask:',
  ' packets transmitted, ',
  ' received',
  'load average',
  '| state: ',
  'UP ',
  'default via ',
  'nameserver ',
  'ping: ',
  'pkt_fwd',
  'error',
];

const hostileOutput = fc
  .array(fc.tuple(fc.constantFrom(...HOSTILE_PIECES), fc.integer({ min: 1, max: 2_000 })), { maxLength: 24 })
  .map((runs) => runs.map(([piece, count]) => piece.repeat(count)).join(''));

describe('the triage parsers on hostile console output', () => {
  it('read no ping summary from 512 KiB of digits', () => {
    expect(parsePing('7'.repeat(HALF_MEGABYTE))).toBeUndefined();
  });

  it('read no summary from 512 KiB of digits before a summary-like tail on the same line', () => {
    expect(parsePing(`${'7'.repeat(HALF_MEGABYTE)} packets transmitted, 3 received\n`)).toBeUndefined();
  });

  it('still read a ping summary after a long line of digits', () => {
    expect(parsePing(`${'7'.repeat(HALF_MEGABYTE)}\n3 packets transmitted, 2 received\n`)).toEqual({
      transmitted: 3,
      received: 2,
    });
  });

  it('see at most MAX_LINE_CHARACTERS of a line and MAX_CONSOLE_TEXT_CHARACTERS in all', () => {
    const flood = `${'7'.repeat(3 * HALF_MEGABYTE)}\n${'x'.repeat(5_000)}\nlast`;
    const lines = consoleLines(flood);
    expect(Math.max(...lines.map((line) => line.length))).toBe(MAX_LINE_CHARACTERS);
    expect(lines.reduce((sum, line) => sum + line.length, 0)).toBeLessThanOrEqual(
      MAX_CONSOLE_TEXT_CHARACTERS,
    );
    expect(lines.at(-1)).toBe('last');
  });

  it('take a run of 512 KiB of carriage returns as one line end', () => {
    expect(cleanConsoleText(`a${'\r'.repeat(HALF_MEGABYTE)}b`)).toBe('a\nb');
  });

  it('keep an unfinished title sequence (OSC) from swallowing the lines after it', () => {
    expect(cleanConsoleText('\x1b]0;gateway\nnameserver 10.0.0.1\n')).toBe('\nnameserver 10.0.0.1\n');
    expect(parseResolvConf('\x1b]0;gateway\nnameserver 10.0.0.1\n')).toEqual(['10.0.0.1']);
  });

  it('read 128 KiB of each hostile piece without throwing, each answer at most a line long', () => {
    for (const piece of HOSTILE_PIECES) {
      const flood = piece.repeat(Math.ceil(HALF_MEGABYTE / 4 / piece.length));
      for (const value of parseEverything(flood))
        expect(value.length).toBeLessThanOrEqual(MAX_LINE_CHARACTERS);
    }
  });

  it('never throw and never answer with more than a line, whatever the console prints', () => {
    fc.assert(
      fc.property(hostileOutput, (text) => {
        for (const value of parseEverything(text))
          expect(value.length).toBeLessThanOrEqual(MAX_LINE_CHARACTERS);
        const health = assessHealth(readingsWithOutput(text));
        for (const finding of health.findings)
          expect(triageFindingWords(finding).length).toBeLessThan(4 * MAX_LINE_CHARACTERS);
      }),
      { numRuns: 60 },
    );
  });

  it('name a modem fault with at most a line of what mmcli printed', () => {
    const health = assessHealth({
      modem: { command: 'mmcli -m 0', output: 'x'.repeat(HALF_MEGABYTE), exitCode: 0 },
    });
    expect(triageCheckWords(health.modem)).toBe(`Modem: ${'x'.repeat(MAX_LINE_CHARACTERS)}.`);
  });
});
