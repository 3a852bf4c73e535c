import { describe, expect, it } from 'vitest';
import { formatClockTime } from '../../../../electron/shared/terminal/clock-time';
import { describeConnectionChange } from '../../../../renderer/src/views/terminals/connection-lines';
import { ManualClock } from '../../../helpers/manual-clock';

const at = new ManualClock().now();
const time = formatClockTime(new Date(at), false);
const base = { wasOpenBefore: true, reason: undefined, at, isAtLineStart: true };

describe('describeConnectionChange', () => {
  it('writes a dim disconnected line with the reason and the time when a session leaves open', () => {
    expect(
      describeConnectionChange({ ...base, from: 'open', to: 'reconnecting', reason: 'Adapter unplugged.' }),
    ).toBe(`\x1b[2m— disconnected: Adapter unplugged ${time} —\x1b[22m\r\n`);
  });

  it('says "disconnected" once, and only the first sentence of the reason', () => {
    expect(
      describeConnectionChange({
        ...base,
        from: 'open',
        to: 'failed',
        reason: 'Disconnected: the port is free for other programs. Reconnect to open it again.',
      }),
    ).toContain(`— disconnected: the port is free for other programs ${time} —`);
  });

  it('leaves the technical detail in closing brackets to the status bar', () => {
    expect(
      describeConnectionChange({
        ...base,
        from: 'open',
        to: 'reconnecting',
        reason:
          'Disconnected: the adapter at /dev/ttyUSB0 went away (unplugged, or the gateway lost power; EIO)',
      }),
    ).toContain(`— disconnected: the adapter at /dev/ttyUSB0 went away ${time} —`);
  });

  it('writes a reconnected line when an earlier open session opens again', () => {
    expect(describeConnectionChange({ ...base, from: 'connecting', to: 'open' })).toBe(
      `\x1b[2m— reconnected ${time} —\x1b[22m\r\n`,
    );
  });

  it('says nothing on the first open', () => {
    expect(describeConnectionChange({ ...base, from: 'connecting', to: 'open', wasOpenBefore: false })).toBe(
      undefined,
    );
  });

  it('starts a new line when the cursor is in the middle of one', () => {
    expect(describeConnectionChange({ ...base, from: 'open', to: 'failed', isAtLineStart: false })).toBe(
      `\r\n\x1b[2m— disconnected ${time} —\x1b[22m\r\n`,
    );
  });
});
