import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { logProcessFaults, type Log } from '../../../electron/app';

function recordingLog() {
  const errors: { message: string; error: unknown }[] = [];
  const log: Log = { info: () => undefined, error: (message, error) => errors.push({ message, error }) };
  return { log, errors };
}

describe('logProcessFaults', () => {
  it('logs an unhandled rejection and an uncaught exception instead of leaving them to end the process', () => {
    const process = new EventEmitter();
    const { log, errors } = recordingLog();
    logProcessFaults(process, log);
    const cause = new RangeError('Maximum call stack size exceeded');
    process.emit('unhandledRejection', cause);
    process.emit('uncaughtException', new TypeError('channel.toString is not a function'));
    expect(errors.map((entry) => [entry.message, String(entry.error)])).toEqual([
      ['unhandled rejection (kept running)', 'RangeError: Maximum call stack size exceeded'],
      ['uncaught exception (kept running)', 'TypeError: channel.toString is not a function'],
    ]);
  });

  it('stops listening when its remover is called', () => {
    const process = new EventEmitter();
    const { log } = recordingLog();
    const stop = logProcessFaults(process, log);
    stop();
    expect(process.listenerCount('unhandledRejection') + process.listenerCount('uncaughtException')).toBe(0);
  });
});
