import { describe, expect, it } from 'vitest';
import { parseTunnelOptions, ReverseTunnelRequestSchema } from '../../../../simulator/ssh/reverse-tunnel';
import { makeReverseSshRequest } from '../../../helpers/factories';

const validRequest = (overrides: Record<string, unknown> = {}) => ({
  ...makeReverseSshRequest({ sshRevPort: 40_001 }),
  ...overrides,
});

describe('parseTunnelOptions', () => {
  it('reads -o Key=Value pairs in both spellings', () => {
    const options = parseTunnelOptions('-o ServerAliveInterval=30 -oServerAliveCountMax=4');
    expect(Object.fromEntries(options)).toEqual({ ServerAliveInterval: '30', ServerAliveCountMax: '4' });
  });

  it('accepts an empty string', () => {
    expect(parseTunnelOptions('  ').size).toBe(0);
  });

  it('refuses an option that could run a command', () => {
    expect(() => parseTunnelOptions('-o ProxyCommand=sh')).toThrow(/unsupported reverseSsh option/);
  });

  it('refuses a bare flag', () => {
    expect(() => parseTunnelOptions('-g')).toThrow(/only -o Key=Value/);
  });
});

describe('ReverseTunnelRequestSchema', () => {
  it('accepts a loopback relay', () => {
    expect(ReverseTunnelRequestSchema.safeParse(validRequest()).success).toBe(true);
  });

  it('refuses a relay that is not on loopback', () => {
    const result = ReverseTunnelRequestSchema.safeParse(validRequest({ sshHost: '10.0.0.1' }));
    expect(result.error?.issues[0]?.message).toMatch(/loopback/);
  });

  it('refuses a port outside 1-65535', () => {
    expect(ReverseTunnelRequestSchema.safeParse(validRequest({ sshRevPort: 70_000 })).success).toBe(false);
  });
});
