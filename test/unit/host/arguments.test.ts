import { describe, expect, it } from 'vitest';
import { parseHostArguments, UsageError } from '../../../electron/host/arguments';

describe('parseHostArguments', () => {
  it('reads --port, --demo and --data-dir', () => {
    expect(parseHostArguments(['--port', '8123', '--demo', '--data-dir=/tmp/fk'])).toMatchObject({
      port: 8123,
      demo: true,
      dataDir: '/tmp/fk',
      build: true,
    });
  });

  it('passes simulator flags through in demo mode as camelCase settings', () => {
    expect(parseHostArguments(['--demo', '--access-ttl', '3', '--refresh-ttl=20']).simulator).toEqual({
      accessTtl: 3,
      refreshTtl: 20,
    });
  });

  it('reads a simulator switch without a value as true', () => {
    expect(parseHostArguments(['--demo', '--ssh', '--seed', '4']).simulator).toEqual({ ssh: true, seed: 4 });
    expect(parseHostArguments(['--demo', '--ssh']).simulator).toEqual({ ssh: true });
  });

  it('refuses simulator flags without --demo', () => {
    expect(() => parseHostArguments(['--access-ttl', '3'])).toThrow(UsageError);
  });

  it('refuses any --host but 127.0.0.1', () => {
    expect(() => parseHostArguments(['--host', '0.0.0.0'])).toThrow(/only listens on 127\.0\.0\.1/);
    expect(parseHostArguments(['--host', '127.0.0.1']).host).toBe('127.0.0.1');
  });

  it('refuses a port that is not a whole number in range', () => {
    expect(() => parseHostArguments(['--port', '70000'])).toThrow(UsageError);
    expect(() => parseHostArguments(['--port'])).toThrow(/needs a value/);
  });
});
