import { describe, expect, it } from 'vitest';
import { parseSerialAttachment } from '../../../../simulator/serial/pty-console';

describe('parseSerialAttachment', () => {
  it('splits a --serial value into the gateway id and the link path', () => {
    expect(parseSerialAttachment('kona-1=/tmp/a=b')).toEqual({ gatewayId: 'kona-1', linkPath: '/tmp/a=b' });
  });

  it('explains the expected form when the value has no gateway id or path', () => {
    expect(() => parseSerialAttachment('=/tmp/x')).toThrow(/--serial expects <gatewayId>=<path>/);
    expect(() => parseSerialAttachment('kona-1')).toThrow(/--serial expects <gatewayId>=<path>/);
  });
});
