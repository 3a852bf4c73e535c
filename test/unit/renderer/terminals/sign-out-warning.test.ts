import { describe, expect, it } from 'vitest';
import type { TerminalInfo } from '../../../../electron/shared/terminal/terminal-schemas';
import { describeSignOut } from '../../../../renderer/src/views/terminals/sign-out-warning';

function makeTerminal(overrides: Partial<TerminalInfo>): TerminalInfo {
  return {
    id: 't1',
    kind: 'ssh',
    title: 'acme-gw-0013 (reverse SSH) · 64:7F:DA:FF:FE:00:1C:AD',
    state: 'open',
    bytesIn: 0,
    bytesOut: 0,
    hostKeys: [],
    route: 'reverse',
    gatewayId: 'gw-13',
    ...overrides,
  };
}

const REVERSE = makeTerminal({});
const SERIAL = makeTerminal({
  id: 't2',
  kind: 'serial',
  title: '/dev/ttyUSB0 · 115200 8N1',
  path: '/dev/ttyUSB0',
  route: undefined,
});
const DIRECT = makeTerminal({ id: 't3', title: '192.168.1.20', route: 'direct', gatewayId: undefined });

describe('describeSignOut', () => {
  it('names each open terminal and says sign-out closes the reverse SSH ones only', () => {
    expect(describeSignOut([REVERSE, SERIAL])).toBe(
      '2 terminals are open: reverse SSH to acme-gw-0013, serial /dev/ttyUSB0. Signing out closes the reverse ' +
        'SSH one; the other one stays open for work without the server, until a different account signs in ' +
        '(that closes it too).',
    );
  });

  it('says a lone reverse SSH terminal is closed', () => {
    expect(describeSignOut([REVERSE])).toBe(
      '1 terminal is open: reverse SSH to acme-gw-0013. Signing out closes it: reverse SSH needs a signed-in account.',
    );
  });

  it('says terminals that do not need the server stay open', () => {
    expect(describeSignOut([DIRECT])).toBe(
      '1 terminal is open: SSH to 192.168.1.20. It stays open for work without the server, until a different ' +
        'account signs in (that closes it too).',
    );
  });

  it('counts the reverse SSH ones and the others when there are several of each', () => {
    const second = { ...REVERSE, id: 't4', title: 'gw-77' };
    expect(describeSignOut([REVERSE, second, SERIAL, DIRECT])).toBe(
      '4 terminals are open: reverse SSH to acme-gw-0013, reverse SSH to gw-77, serial /dev/ttyUSB0, SSH to ' +
        '192.168.1.20. Signing out closes the reverse SSH ones; the others stay open for work without the ' +
        'server, until a different account signs in (that closes them too).',
    );
  });

  it('asks nothing when every terminal is already closed', () => {
    expect(describeSignOut([{ ...REVERSE, state: 'closed' }])).toBeNull();
  });
});
