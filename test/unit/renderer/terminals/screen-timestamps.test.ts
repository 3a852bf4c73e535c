import { describe, expect, it } from 'vitest';
import { formatClockTime } from '../../../../electron/shared/terminal/clock-time';
import { endsLine, ScreenTimestamper } from '../../../../renderer/src/views/terminals/screen-timestamps';
import { ManualClock } from '../../../helpers/manual-clock';

const clock = new ManualClock();
const STAMP = `\x1b[2m[${formatClockTime(new Date(clock.now()))}]\x1b[22m `;

function stampAll(chunks: string[]): string {
  const stamper = new ScreenTimestamper(clock);
  return chunks.map((chunk) => stamper.stampText(chunk)).join('');
}

describe('ScreenTimestamper', () => {
  it('stamps each line once, in dim, even when a line arrives in several chunks', () => {
    expect(stampAll(['boot', 'ing\r\nkern', 'el\r\n'])).toBe(`${STAMP}booting\r\n${STAMP}kernel\r\n`);
  });

  it('stamps with milliseconds', () => {
    expect(STAMP).toMatch(/\[\d{2}:\d{2}:\d{2}\.\d{3}\]/);
  });

  it('never stamps inside an escape sequence split across chunks, and puts the stamp after a colour set at line start', () => {
    expect(stampAll(['\r\n\x1b[3', '1mred\x1b[0m\r\n'])).toBe(`\r\n\x1b[31m${STAMP}red\x1b[0m\r\n`);
  });

  it('restores the bold the line had on after the stamp', () => {
    const boldStamp = STAMP.replace('\x1b[22m', '\x1b[22m\x1b[1m');
    expect(stampAll(['\x1b[1mone\r\ntwo'])).toBe(`\x1b[1m${boldStamp}one\r\n${boldStamp}two`);
  });

  it('does not take an extended colour number for bold', () => {
    expect(stampAll(['\x1b[38;5;1mx\r\ny'])).toBe(`\x1b[38;5;1m${STAMP}x\r\n${STAMP}y`);
  });

  it('leaves a window title (OSC) with a line feed in it alone', () => {
    expect(stampAll(['\x1b]0;a\nb\x07', 'text'])).toBe(`\x1b]0;a\nb\x07${STAMP}text`);
  });

  it('stamps nothing on the alternate screen, and again once back', () => {
    expect(stampAll(['\x1b[?1049h', 'top\r\nrow\r\n', '\x1b[?1049l', '\r\nback'])).toBe(
      `\x1b[?1049htop\r\nrow\r\n\x1b[?1049l\r\n${STAMP}back`,
    );
  });

  it('does not stamp empty lines or a carriage return alone', () => {
    expect(stampAll(['\r\n\r\n\r'])).toBe('\r\n\r\n\r');
  });

  it('passes UTF-8 through untouched, even split inside a character', () => {
    const bytes = new TextEncoder().encode('é\r\n');
    const stamper = new ScreenTimestamper(clock);
    const out = [stamper.stamp(bytes.subarray(0, 1)), stamper.stamp(bytes.subarray(1))];
    expect(new TextDecoder().decode(new Uint8Array([...out[0]!, ...out[1]!]))).toBe(`${STAMP}é\r\n`);
  });

  it('starts stamping at the next line start after a restart at a line start', () => {
    const stamper = new ScreenTimestamper(clock);
    stamper.stampText('prompt# ');
    stamper.restart(true);
    expect(stamper.stampText('next')).toBe(`${STAMP}next`);
  });
});

describe('endsLine', () => {
  it('is true only when the last byte is a line feed', () => {
    expect(endsLine(new TextEncoder().encode('a\r\n'))).toBe(true);
    expect(endsLine(new TextEncoder().encode('a# '))).toBe(false);
    expect(endsLine(new Uint8Array())).toBe(false);
  });
});
