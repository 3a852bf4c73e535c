import { ApiClient, ApiError } from '../../../electron/services/api';
import { Session } from '../../../electron/services/session';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../../../simulator';
import type { GatewayEntity } from '../../../simulator/tenant';

/** The demo provider account: it sees every gateway. */
export const PROVIDER = { username: 'provider@fieldkit.demo', password: 'demo-provider' };

/** A simulator on loopback (port 0) and a session logged in as the provider (login retried through --fail-rate). */
export async function startSimulatorSession(options: SimulatorOptions = {}) {
  const simulator = await startSimulator({ port: 0, host: '127.0.0.1', ...options });
  const session = new Session({ client: new ApiClient({ baseUrl: simulator.url, timeoutMs: 20_000 }) });
  for (let attempt = 1; attempt <= 50; attempt++) {
    try {
      await session.login(PROVIDER.username, PROVIDER.password);
      break;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 503) || attempt === 50) {
        await simulator.close();
        throw error;
      }
    }
  }
  return { simulator, session };
}

/** The simulated gateways matching `predicate`, from the simulator's own tenant (facts the API does not show). */
export function gatewaysWhere(
  simulator: RunningSimulator,
  predicate: (entity: GatewayEntity) => boolean,
): GatewayEntity[] {
  return [...simulator.world.tenant.gatewaysById.values()].filter(predicate);
}

/** A gateway that answers, has a working Ethernet link and the right APN: the easy case. */
export function healthyGateway(simulator: RunningSimulator, skip = 0): GatewayEntity {
  const found = gatewaysWhere(
    simulator,
    (entity) => !entity.isOfflineFromStart && entity.hasEthernetLink && entity.index % 4 !== 1,
  )[skip];
  if (!found) throw new Error('no healthy gateway in the demo tenant');
  return found;
}
