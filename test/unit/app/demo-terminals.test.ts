import { describe, expect, it, vi } from 'vitest';
import {
  DEMO_PROFILE_NAME,
  demoConsoleGateway,
  demoProfileFields,
  demoTerminals,
  type DemoGateway,
  type DemoSimulator,
} from '../../../electron/app/demo-terminals';
import type { BindingInterface } from '../../../electron/services/serial';
import { MemoryStore } from '../../../electron/services/credentials';
import { RelayPasswords } from '../../../electron/services/terminals/terminal-secrets';

function buildGateway(overrides: Partial<DemoGateway>): DemoGateway {
  return {
    id: 'gw-1',
    name: 'roof-1',
    bspVersion: '6.1.0',
    rootPassword: 'label-pw',
    initialStatus: 'ONLINE',
    ...overrides,
  };
}

const RELAY = { host: '127.0.0.1', port: 2222, username: 'relay', password: 'demo-relay' };

function buildSimulator(overrides: Partial<DemoSimulator> = {}): DemoSimulator {
  return {
    url: 'http://127.0.0.1:8080',
    fixture: {
      accounts: [{ username: 'tech@demo', password: 'demo', role: 'CUSTOMER_USER' }],
      gateways: [buildGateway({ id: 'gw-off', initialStatus: 'OFFLINE' }), buildGateway({ id: 'gw-on' })],
    },
    relay: RELAY,
    serialConsoleOf: (gatewayId) => ({
      gateway: { gatewayId, hostname: 'roof-1', bspVersion: '6.1.0', rootPassword: 'label-pw' },
    }),
    ...overrides,
  };
}

const FAKE_BINDING = {} as BindingInterface;

describe('demo terminals', () => {
  it('puts the console on the first gateway that is online', () => {
    expect(demoConsoleGateway(buildSimulator().fixture).id).toBe('gw-on');
  });

  it('gives the demo profile the relay without its password', () => {
    const fields = demoProfileFields(buildSimulator());
    expect(fields).toMatchObject({
      name: DEMO_PROFILE_NAME,
      relay: { host: '127.0.0.1', port: 2222, username: 'relay' },
    });
    expect(JSON.stringify(fields)).not.toContain(RELAY.password);
  });

  it('builds the console from the simulator’s own setup for that gateway, and makes the relay password known', async () => {
    const relayPasswords = new RelayPasswords(new MemoryStore());
    const createBinding = vi.fn(() => FAKE_BINDING);
    const options = demoTerminals({ relayPasswords }, buildSimulator(), 'demo', createBinding);
    expect(createBinding).toHaveBeenCalledWith({
      gateway: { gatewayId: 'gw-on', hostname: 'roof-1', bspVersion: '6.1.0', rootPassword: 'label-pw' },
    });
    expect(options.demoBinding).toBe(FAKE_BINDING);
    expect(options.demoGateway).toBe('roof-1');
    expect(options.knownRelayPasswords?.get('demo')).toBe(RELAY.password);
    expect(await relayPasswords.isStored('demo')).toBe(true);
  });

  it('offers only the console when the simulator has no SSH side', () => {
    const relayPasswords = new RelayPasswords(new MemoryStore());
    const simulator = buildSimulator();
    delete simulator.relay;
    const options = demoTerminals({ relayPasswords }, simulator, 'demo', () => FAKE_BINDING);
    expect(options).toEqual({ demoBinding: FAKE_BINDING, demoGateway: 'roof-1' });
    expect(demoProfileFields(simulator)).not.toHaveProperty('relay');
  });
});
