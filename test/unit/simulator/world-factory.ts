import { ManualClock, SIMULATED_START_MS } from '../../helpers/manual-clock';
import { GatewayFleet } from '../../../simulator/gateways/fleet';
import type { GatewayTimings } from '../../../simulator/gateways/state';
import { createTenant, NEWEST_BSP_VERSION, type GatewayEntity, type Tenant } from '../../../simulator/tenant';
import type { ReverseTunnels } from '../../../simulator/tunnels';

/** Timings small enough to reason about in tests. */
export const TEST_TIMINGS: GatewayTimings = { rebootMs: 30_000, downloadMs: 10_000, installMs: 10_000 };
/** Command timeout used by the fleets these factories build. */
export const TEST_COMMAND_TIMEOUT_MS = 5_000;

/** A small tenant with a fake clock, and a fleet of its gateways. */
export function createTestFleet(options: { tunnels?: ReverseTunnels; seed?: number } = {}) {
  const clock = new ManualClock(SIMULATED_START_MS);
  const tenant: Tenant = createTenant({
    seed: options.seed ?? 7,
    gateways: 24,
    devices: 50,
    customers: 2,
    offlineFraction: 0.2,
    nowMs: clock.now(),
  });
  const fleet = new GatewayFleet({
    tenant,
    clock,
    timings: TEST_TIMINGS,
    commandTimeoutMs: TEST_COMMAND_TIMEOUT_MS,
    tunnels: options.tunnels,
  });
  /** Runs a command and returns its answer (or throws the SimulatorError). */
  const run = (gateway: GatewayEntity, command: string, body: unknown = {}) =>
    fleet.runCommand(gateway, command, body);
  return { clock, tenant, fleet, run };
}

/** The first gateway matching `predicate` (online from the start unless asked otherwise). */
export function findGateway(tenant: Tenant, predicate: (gateway: GatewayEntity) => boolean): GatewayEntity {
  const gateway = tenant.gateways.find(predicate);
  if (!gateway) throw new Error('no gateway in the test tenant matches');
  return gateway;
}

/** An online gateway on the newest BSP with a working Ethernet link and a correct APN. */
export function healthyGateway(tenant: Tenant): GatewayEntity {
  return findGateway(
    tenant,
    (gateway) =>
      !gateway.isOfflineFromStart &&
      gateway.bspVersion === NEWEST_BSP_VERSION &&
      gateway.hasEthernetLink &&
      gateway.index % 4 !== 1,
  );
}
