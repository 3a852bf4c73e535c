import { Scenarios, type ScenarioSpec } from './scenarios';
import { describeIssues, summarizeIssues } from '../electron/shared/api/validation';
import { SYSTEM_CLOCK, type Clock } from '../electron/shared/clock';
import { describeFixture, type Fixture, type FixtureRelay } from './fixture';
import { SimulatorSettingsSchema, type SimulatorSettings, type SimulatorSettingsInput } from './options';
import type { SerialConsoleGateway } from './serial/serial-console';
import { createServer, type ServerHooks } from './server';
import type { GatewayShellContext } from './shell/gateway-shell';
import { describeGatewayNetwork } from './shell/gateway-network';
import { LOOPBACK } from './ssh/relay';
import { createSshWorld, type SshWorld } from './ssh/ssh-world';
import type { ReverseTunnels } from './tunnels';
import { createWorld, type World } from './world';

export type { Clock } from '../electron/shared/clock';
export type { Fixture, FixtureRelay } from './fixture';
export type { ReverseTunnels } from './tunnels';
export type { SimulatorSettings, SimulatorSettingsInput } from './options';

/** Relay account of the built-in SSH side (loopback only; a demo secret like the demo passwords). */
export const DEMO_RELAY_ACCOUNT = { username: 'relay', password: 'demo-relay' } as const;

/** The built-in relay as the fixture gives it; `port` null while it is still to be chosen at start. */
export function describeRelay(port: number | null): FixtureRelay {
  return { host: LOOPBACK, port, ...DEMO_RELAY_ACCOUNT };
}

/** What startSimulator takes: the CLI's settings plus in-process hooks. */
export interface SimulatorOptions extends SimulatorSettingsInput {
  /** Time source (default the wall clock); a fake clock lets tests advance time instead of sleeping. */
  clock?: Clock;
  /**
   * The SSH side: opens and closes reverse tunnels for reverseSsh / stopReverseSsh. Without it (and without
   * `ssh: true`) reverseSsh is accepted and only recorded in the gateway's state.
   */
  tunnels?: ReverseTunnels;
  /** HS256 secret of the JWTs (default: random per run). */
  jwtSecret?: Uint8Array;
  /** Sees each gateway command once carried out and may hold its answer (tests; see ServerHooks). */
  beforeCommandAnswer?: ServerHooks['beforeCommandAnswer'];
  /** Faults per gateway id (`*`: every gateway) for acceptance-check demos and tests (simulator/scenarios.ts). */
  scenarios?: ScenarioSpec;
}

/** Where the built-in SSH relay listens, when `ssh` is on. */
export interface RelayAddress {
  host: string;
  port: number;
  username: string;
  password: string;
}

/** A running simulator. */
export interface RunningSimulator {
  /** `http://127.0.0.1:<port>` — the base address of the API. */
  url: string;
  port: number;
  /** The demo tenant's ids, names, accounts and passwords. */
  fixture: Fixture;
  /** The settings in force, defaults filled in. */
  settings: SimulatorSettings;
  clock: Clock;
  /** The in-memory world, for tests that look behind the API (gateway state, tokens). */
  world: World;
  /** The SSH relay reverseSsh should point at, when started with `ssh: true`. */
  relay?: RelayAddress;
  /** The SSH side (relay, gateway sshds), when started with `ssh: true`. */
  sshWorld?: SshWorld;
  /** Reboots a gateway as its own `reboot` would (e.g. from its shell): OFFLINE for --reboot-ms. */
  rebootGateway(gatewayId: string): void;
  /**
   * What a gateway's serial console needs (`--serial`): its facts and label password, and a shell whose
   * `ifconfig`, `ip`, `route`, `ping`, `mmcli` and log answer from the gateway's live state (Ethernet link, APN,
   * active WAN link), as the API does. Throws for an unknown gateway.
   */
  serialConsoleOf(gatewayId: string): {
    gateway: SerialConsoleGateway;
    shellContext: Partial<GatewayShellContext>;
    onReboot(): void;
  };
  /** Stops listening, ends pending command waits and closes connections (and the SSH side). */
  close(): Promise<void>;
}

/**
 * Starts the OAM simulator on loopback: every endpoint of the API on a deterministic demo tenant; with
 * `ssh: true` also the SSH relay and a shell per gateway behind reverseSsh. Refuses a non-loopback host or an
 * invalid setting with an Error naming the setting.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const { clock = SYSTEM_CLOCK, tunnels, jwtSecret, beforeCommandAnswer, scenarios, ...input } = options;
  const parsed = SimulatorSettingsSchema.safeParse(input);
  if (!parsed.success)
    throw new Error(`Invalid simulator settings: ${summarizeIssues(describeIssues(parsed.error))}`);
  const settings = parsed.data;
  // The SSH side needs the tenant's gateways and the fleet's reboot, the fleet needs the tunnels: bind late.
  let sshWorld: SshWorld | undefined;
  const builtInTunnels: ReverseTunnels = {
    openReverseTunnel: (gatewayId, request) =>
      (sshWorld as SshWorld).tunnels.openReverseTunnel(gatewayId, request),
    closeTunnels: (gatewayId) => (sshWorld as SshWorld).tunnels.closeTunnels(gatewayId),
  };
  const world = createWorld({
    tenant: {
      seed: settings.seed,
      gateways: settings.gateways,
      devices: settings.devices,
      customers: settings.customers,
      offlineFraction: settings.offlineFraction,
    },
    clock,
    tokens: { accessTtlSeconds: settings.accessTtl, refreshTtlSeconds: settings.refreshTtl },
    timings: {
      rebootMs: settings.rebootMs,
      downloadMs: settings.upgradeMs / 2,
      installMs: settings.upgradeMs / 2,
    },
    commandTimeoutMs: settings.commandTimeoutMs,
    tunnels: tunnels ?? (settings.ssh ? builtInTunnels : undefined),
    secret: jwtSecret,
    scenarios: new Scenarios(scenarios),
  });
  if (settings.ssh) {
    sshWorld = await createSshWorld({
      seed: settings.seed,
      relayPort: settings.relayPort,
      relayUser: DEMO_RELAY_ACCOUNT.username,
      relayPassword: DEMO_RELAY_ACCOUNT.password,
      gateways: world.tenant.gateways.map((gateway) => ({
        id: gateway.id,
        hostname: gateway.name,
        bspVersion: gateway.bspVersion,
        rootPassword: gateway.rootPassword,
      })),
      onReboot: (gatewayId) => world.fleet.reboot(world.fleet.entityOf(gatewayId)),
    });
  }
  // "localhost" may resolve to ::1 first; listen where the printed URL points.
  const listenHost = settings.host === 'localhost' ? '127.0.0.1' : settings.host;
  const app = createServer(
    world,
    {
      latencyMs: settings.latencyMs,
      failRate: settings.failRate,
      dropRate: settings.dropRate,
      dropAfterRate: settings.dropAfterRate,
      seed: settings.seed,
    },
    { beforeCommandAnswer },
  );
  try {
    await app.listen({ port: settings.port, host: listenHost });
  } catch (error) {
    await sshWorld?.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : settings.port;
  const urlHost = listenHost === '::1' ? '[::1]' : listenHost;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    fixture: describeFixture(
      world.tenant,
      describeRelay(sshWorld?.relay.port ?? (settings.relayPort || null)),
    ),
    settings,
    clock,
    world,
    ...(sshWorld ? { relay: sshWorld.relay, sshWorld } : {}),
    rebootGateway(gatewayId) {
      world.fleet.reboot(world.fleet.entityOf(gatewayId));
    },
    serialConsoleOf(gatewayId) {
      const entity = world.fleet.entityOf(gatewayId);
      return {
        gateway: {
          gatewayId,
          hostname: entity.name,
          bspVersion: world.fleet.stateOf(entity).bspVersion,
          rootPassword: entity.rootPassword,
        },
        shellContext: {
          network: () => describeGatewayNetwork(world.fleet.stateOf(entity), clock.now()),
          // The gateway's own clock: the simulator's, moved by a `clock-skew` scenario.
          clock: { now: () => clock.now() + world.fleet.scenarios.clockOffsetOf(gatewayId) },
          bootedAt: new Date(world.fleet.stateOf(entity).bootedAt),
        },
        onReboot: () => world.fleet.reboot(entity),
      };
    },
    close() {
      closing ??= (async () => {
        world.fleet.close();
        await world.integrationTraffic.close();
        await app.close();
        await sshWorld?.close();
      })();
      return closing;
    },
  };
}
