import { TokenService, type TokenDefaults } from './auth';
import type { Clock } from '../electron/shared/clock';
import { GatewayLists } from './gateway-list';
import { IntegrationTraffic } from './integrations/traffic';
import { GatewayFleet } from './gateways/fleet';
import type { GatewayTimings } from './gateways/state';
import { Scope } from './scope';
import { createTenant, type Tenant, type TenantOptions } from './tenant';
import type { ReverseTunnels } from './tunnels';
import type { Scenarios } from './scenarios';

/** Everything the routes work on: the tenant, the gateways, tokens, scope and stored settings. */
export interface World {
  clock: Clock;
  tenant: Tenant;
  fleet: GatewayFleet;
  tokens: TokenService;
  scope: Scope;
  gatewayLists: GatewayLists;
  /** Saved network settings by `${entityType}:${entityId}`. */
  networkSettings: Map<string, Record<string, unknown>>;
  /** Traffic of stored integrations (simulator/integrations). */
  integrationTraffic: IntegrationTraffic;
}

/** What building a world takes. */
export interface WorldOptions {
  tenant: Omit<TenantOptions, 'nowMs'>;
  clock: Clock;
  tokens: TokenDefaults;
  timings: GatewayTimings;
  commandTimeoutMs: number;
  tunnels?: ReverseTunnels | undefined;
  /** Faults per gateway (simulator/scenarios.ts). */
  scenarios?: Scenarios | undefined;
  /** HS256 secret for the JWTs (a random one per run when absent). */
  secret?: Uint8Array | undefined;
}

/** Builds the in-memory world: the demo tenant at the clock's now, fresh gateways, no tokens yet. */
export function createWorld(options: WorldOptions): World {
  const tenant = createTenant({ ...options.tenant, nowMs: options.clock.now() });
  const fleet = new GatewayFleet({
    tenant,
    clock: options.clock,
    timings: options.timings,
    commandTimeoutMs: options.commandTimeoutMs,
    tunnels: options.tunnels,
    scenarios: options.scenarios,
  });
  const gatewayLists = new GatewayLists(tenant, fleet);
  gatewayLists.precompute();
  return {
    clock: options.clock,
    tenant,
    fleet,
    tokens: new TokenService({
      tenant,
      clock: options.clock,
      defaults: options.tokens,
      secret: options.secret,
    }),
    scope: new Scope(tenant),
    gatewayLists,
    networkSettings: new Map(),
    integrationTraffic: new IntegrationTraffic({
      clock: options.clock,
      devicesOf: (applicationId) => tenant.devices.filter((device) => device.applicationId === applicationId),
    }),
  };
}
