import type { DomainHandlers } from './context';
import type { integrationsChannels } from '../../shared/ipc/domains/integrations';
import { LaptopIntegrationTester } from '../../services/integrations';
import type { Clock } from '../../shared/clock';

/**
 * Handlers of the integrations channels (electron/shared/ipc/domains/integrations.ts). The laptop test needs
 * no session: it talks to the broker or HTTP server directly, and its secrets are used for that call only.
 */
export function createIntegrationsHandlers({
  clock,
  tester = new LaptopIntegrationTester({ clock }),
}: {
  /** The app's time and timers (the tester's time limits); default SYSTEM_CLOCK. */
  clock?: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
  tester?: LaptopIntegrationTester;
} = {}): DomainHandlers<typeof integrationsChannels> {
  return {
    'integrations:test': (input) =>
      input.type === 'MQTT_V2'
        ? tester.testMqtt(input.configuration, { publish: input.publish })
        : tester.testHttp(input.configuration),
  };
}
