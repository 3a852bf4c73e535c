import { ApiError } from '../../electron/services/api';
import { gatewayCommands, type Apn, type CommandName } from '../../electron/shared/api/commands';
import { SimulatorError } from '../../simulator/failure';
import { GatewayFleet, NO_BODY } from '../../simulator/gateways/fleet';
import type { GatewayTimings } from '../../simulator/gateways/state';
import { Scenarios, type ScenarioFault } from '../../simulator/scenarios';
import { BSP_VERSIONS, createTenant, type GatewayEntity } from '../../simulator/tenant';
import { commanderAnswering } from './commander';
import { ManualClock, SIMULATED_START_MS } from './manual-clock';

/**
 * The gateway time one command takes on a gateway that keeps its own clock: the only way its time moves besides
 * its own waits, so that a software job progresses and a modem attaches as commands go (the timings below are
 * counted in these steps).
 */
export const COMMAND_STEP_MS = 1_000;
/** Timings of the simulated gateway, in command steps: a job runs four, a reboot keeps it silent for three. */
export const SIMULATED_GATEWAY_TIMINGS: GatewayTimings = {
  rebootMs: 3 * COMMAND_STEP_MS,
  downloadMs: 2 * COMMAND_STEP_MS,
  installMs: 2 * COMMAND_STEP_MS,
};
/** How long the simulator waits for the gateway before it answers 408: one step. */
const COMMAND_TIMEOUT_MS = COMMAND_STEP_MS;
/** Most turns a command is driven on the gateway's own clock before the helper gives up on it. */
const MAX_TURNS = 1_000;

/** What a test asks of its simulated gateways. */
export interface SimulatedFleetOptions {
  /**
   * Their fixed facts. By default: a SIM for `iot.sim.example`, an Ethernet link, and a BSP older than the newest
   * (so network selection is refused and every base package but one has an upgrade, with `bsp` itself).
   */
  facts?: Partial<Pick<GatewayEntity, 'simApn' | 'bspVersion' | 'hasEthernetLink'>>;
  /** A scenario's faults (simulator/scenarios.ts), e.g. `['stale-software']`: healthy but for its one upgrade. */
  scenario?: readonly ScenarioFault[];
  /**
   * A clock shared with the code under test, which the test advances (the simulator's waits included). Without one
   * the gateways keep their own, from SIMULATED_START_MS: each command takes COMMAND_STEP_MS of it, and the
   * simulator's waits (a command to a silent gateway) pass at once.
   */
  clock?: ManualClock;
  /** How long the simulator waits for a silent gateway before it answers 408 (default: one command step). */
  commandTimeoutMs?: number;
}

/** What a test asks of its simulated gateway. */
export interface SimulatedGatewayOptions extends SimulatedFleetOptions {
  /** The id the app knows it by (default `gw-1`). */
  id?: string;
}

/** One command as it reached the gateway: the request as the code under test sent it. */
export interface SimulatedCall {
  name: CommandName;
  request: unknown;
}

/**
 * One gateway of the simulator driven in-process, through the fleet's command model (the one the HTTP API runs),
 * as a GatewayCommander for the engines under test: errors come as the API client gives them (ApiError with the
 * server's status, errorCode and message), answers as the wire carries them (JSON), each checked against the
 * catalogue. `state` and `faults` are the gateway's own, for a test to look at and to switch faults on.
 */
export function createSimulatedGateway(options: SimulatedGatewayOptions = {}) {
  const { id = 'gw-1', ...fleetOptions } = options;
  const simulated = createSimulatedFleet([id], fleetOptions);
  const gateway = simulated.gateway(id);
  return { ...gateway, fleet: simulated.fleet, clock: simulated.clock, commander: simulated.commander };
}

/** A simulated gateway as createSimulatedGateway builds it. */
export type SimulatedGateway = ReturnType<typeof createSimulatedGateway>;

/**
 * Several gateways of one simulated tenant, alike (the facts and scenario of `options`), driven in-process as
 * createSimulatedGateway drives one, through one GatewayCommander and one clock. `count` makes gateways `gw-0` to
 * `gw-<count − 1>`; a list of ids names them. `mostInFlight()` is the most commands the gateways were answering
 * at once.
 */
export function createSimulatedFleet(count: number | readonly string[], options: SimulatedFleetOptions = {}) {
  const ids = typeof count === 'number' ? Array.from({ length: count }, (_, index) => `gw-${index}`) : count;
  const ownClock = options.clock === undefined;
  const clock = options.clock ?? new ManualClock(SIMULATED_START_MS);
  const tenant = createTenant({
    seed: 1,
    gateways: 0,
    devices: 0,
    customers: 2,
    offlineFraction: 0,
    nowMs: clock.now(),
  });
  const customer = [...tenant.customers.values()][0];
  const group = [...tenant.gatewayGroups.values()].find((candidate) => candidate.customerId === customer?.id);
  if (!customer || !group) throw new Error('the tenant has no customer with a gateway group');
  const entities = ids.map((id, position): GatewayEntity => {
    const entity: GatewayEntity = {
      // Index 0 for each: the demo tenant's defects skip it (wrong APN, disconnected antenna), its modem's IP is
      // 10.64.0.2; the gateways differ only in id, name and MAC.
      index: 0,
      id,
      name: `test-gw-${String(position + 1).padStart(4, '0')}`,
      gatewayMac: `647FDAFFFE${position.toString(16).toUpperCase().padStart(6, '0')}`,
      gatewayModelName: 'KONA Macro',
      createdTime: tenant.createdTime + 86_400_000,
      customerId: customer.id,
      gatewayGroupId: group.id,
      isPublic: false,
      isLoggingEnabled: true,
      isUdpAllowed: false,
      isNotMqttsAllowed: false,
      bspVersion: BSP_VERSIONS[1],
      rootPassword: 'test-root-password',
      isOfflineFromStart: false,
      simApn: 'iot.sim.example',
      hasEthernetLink: true,
      latitude: 51.0447,
      longitude: -114.0719,
      ...options.facts,
    };
    tenant.gateways.push(entity);
    tenant.gatewaysById.set(id, entity);
    return entity;
  });
  const scenario = options.scenario;
  const fleet = new GatewayFleet({
    tenant,
    clock,
    timings: SIMULATED_GATEWAY_TIMINGS,
    commandTimeoutMs: options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
    scenarios: new Scenarios(scenario ? Object.fromEntries(ids.map((id) => [id, scenario])) : {}),
  });
  const calls = new Map<string, SimulatedCall[]>(ids.map((id) => [id, []]));
  let inFlight = 0;
  let mostInFlight = 0;

  const commander = commanderAnswering(async ({ gatewayId, name, request, options: callOptions }) => {
    callOptions?.signal?.throwIfAborted();
    calls.get(gatewayId)?.push({ name, request });
    const definition = gatewayCommands[name];
    // What the API client puts on the wire (electron/services/api/client.ts): `{}` for an empty body, JSON.
    const input = request === undefined && definition.bodyKind === 'empty' ? {} : request;
    const body = definition.bodyKind === 'none' || input === undefined ? NO_BODY : wireCopy(input);
    inFlight++;
    mostInFlight = Math.max(mostInFlight, inFlight);
    try {
      const running = fleet.runCommand(fleet.entityOf(gatewayId), name, body, callOptions?.signal);
      return wireCopy((await (ownClock ? driven(clock, running) : running)) ?? {});
    } catch (error) {
      if (error instanceof SimulatorError)
        throw new ApiError(error.status, error.errorCode, error.message, `command ${name}`);
      throw error;
    } finally {
      inFlight--;
      if (ownClock) clock.advance(COMMAND_STEP_MS);
    }
  });

  const handles = new Map(entities.map((entity) => [entity.id, gatewayHandle(fleet, entity, calls)]));
  return {
    fleet,
    clock,
    commander,
    /** Every gateway, in the order of `count`. */
    gateways: [...handles.values()],
    /** The gateway with this id. */
    gateway(id: string) {
      const handle = handles.get(id);
      if (!handle) throw new Error(`the simulated fleet has no gateway ${id}`);
      return handle;
    },
    /** The most commands the gateways were answering at once. */
    mostInFlight: () => mostInFlight,
  };
}

/** Simulated gateways as createSimulatedFleet builds them. */
export type SimulatedFleet = ReturnType<typeof createSimulatedFleet>;

/** What a test sees of one gateway of a simulated fleet, and the setup it may give it. */
function gatewayHandle(fleet: GatewayFleet, entity: GatewayEntity, calls: Map<string, SimulatedCall[]>) {
  const ownCalls = calls.get(entity.id) ?? [];
  return {
    id: entity.id,
    entity,
    /** Every command that reached the gateway, in order. */
    calls: ownCalls,
    /** The names of those commands. */
    names: () => ownCalls.map((call) => call.name),
    /** The gateway's state, brought up to now. */
    get state() {
      return fleet.stateOf(entity);
    },
    /** Its fault switches (simulator/gateways/faults.ts). */
    faults: fleet.faultsOf(entity),
    /** Reboots it now, as a power cycle would. */
    reboot: () => fleet.reboot(entity),
    /** Gives it these APNs (new ones get the next free idx), as if a technician had set them before the test. */
    setApns(apns: Apn[]) {
      const state = fleet.stateOf(entity);
      state.configuration.apns = structuredClone(apns);
      state.nextApnIdx = Math.max(-1, ...apns.map((apn) => apn.idx)) + 1;
    },
    /**
     * Makes these (installed) packages the upgradable ones, each to the version given, and no other: the list its
     * vendor offers it before the test.
     */
    offerUpgrades(offered: Record<string, string>) {
      for (const item of fleet.stateOf(entity).packages) {
        const newVer = offered[item.name];
        if (newVer === undefined) {
          delete item.newVer;
          delete item.special;
        } else Object.assign(item, { newVer, special: item.name === 'bsp' ? 1 : 0 });
      }
    },
  };
}

/** The value as JSON carries it: what the other side of the wire gets. */
function wireCopy(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/**
 * Runs `work` on the gateway's own clock: whenever nothing else is left to do, time moves to its next timer (the
 * simulator waiting for a silent gateway), so the wait passes at once and in order.
 */
export async function driven<T>(clock: ManualClock, work: Promise<T>): Promise<T> {
  let isDone = false;
  const watched = work.finally(() => (isDone = true));
  // Its rejection is the caller's, once this returns it.
  watched.catch(() => undefined);
  for (let turn = 0; turn < MAX_TURNS && !isDone; turn++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    const next = Math.min(...clock.timers.map((timer) => timer.at));
    if (!isDone && Number.isFinite(next)) clock.advance(Math.max(0, next - clock.now()));
  }
  return watched;
}
