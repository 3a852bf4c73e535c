import { gatewayCommands, isCommandName, type CommandName } from '../../electron/shared/api/commands';
import { ERROR_CODES } from '../../electron/shared/api/errors';
import type { Clock } from '../../electron/shared/clock';
import { badArgument, notFound, parseOrThrow, SimulatorError } from '../failure';
import { Random } from '../random';
import { NEWEST_BSP_VERSION, type EventEntity, type GatewayEntity, type Tenant } from '../tenant';
import type { ReverseTunnels } from '../tunnels';
import { backupCommands } from './backups';
import type { CommandContext, CommandHandlers } from './context';
import { diagnosticsCommands } from './diagnostics';
import { faultyAnswer, takeUnanswered, type GatewayFaults } from './faults';
import { firewallCommands } from './firewall';
import { locationCommands } from './location';
import { modemCommands } from './modem';
import { softwareCommands } from './software';
import {
  createGatewayState,
  isOnline,
  lastHeartbeat,
  settle,
  startReboot,
  type GatewayState,
  type GatewayTimings,
} from './state';
import { wanCommands } from './wan';
import { clearAlarmsOf, Scenarios, settleWithPingWatchdog, type ScenarioFault } from '../scenarios';

/** Every command of the catalogue, one module per group; the type refuses a missing one. */
export const COMMAND_HANDLERS: CommandHandlers<CommandName> = {
  ...diagnosticsCommands,
  ...locationCommands,
  ...backupCommands,
  ...softwareCommands,
  ...modemCommands,
  ...wanCommands,
  ...firewallCommands,
};

/** What a GatewayFleet needs. */
export interface GatewayFleetOptions {
  tenant: Tenant;
  clock: Clock;
  timings: GatewayTimings;
  /** How long a command to an offline gateway waits before it ends in 408. */
  commandTimeoutMs: number;
  tunnels?: ReverseTunnels | undefined;
  /** Faults per gateway (simulator/scenarios.ts); none: the demo tenant as it is. */
  scenarios?: Scenarios | undefined;
}

/** Sentinel body for a request that carried no body at all. */
export const NO_BODY = Symbol('no body');

/** The simulated gateways: their state (created on first use) and the commands they answer. */
export class GatewayFleet {
  private readonly states = new Map<string, GatewayState>();
  private readonly startedAt: number;
  private readonly shutdown = new AbortController();
  /** The Raised outage event of each gateway that is restarting now. */
  private readonly outages = new Map<string, EventEntity>();
  private readonly eventIds: Random;
  /** The tunnel hooks, each bounded by the command timeout (a hook that hangs ends in 408, not a hung call). */
  private readonly boundedTunnels: ReverseTunnels | undefined;
  /** The faults each gateway has (simulator/scenarios.ts). */
  readonly scenarios: Scenarios;

  constructor(private readonly options: GatewayFleetOptions) {
    this.startedAt = options.clock.now();
    this.scenarios = options.scenarios ?? new Scenarios();
    // A gateway given a scenario has no alarm left from the demo tenant's history, from the first read on.
    for (const entity of options.tenant.gateways)
      if (this.scenarios.faultsOf(entity.id)) clearAlarmsOf(options.tenant.events, entity.id, this.startedAt);
    this.eventIds = new Random(options.tenant.seed).fork('outage-events');
    const tunnels = options.tunnels;
    this.boundedTunnels = tunnels && {
      openReverseTunnel: (gatewayId, request) =>
        this.withinCommandTimeout(tunnels.openReverseTunnel(gatewayId, request), 'opening the tunnel'),
      closeTunnels: (gatewayId) =>
        this.withinCommandTimeout(tunnels.closeTunnels(gatewayId), 'closing the tunnels'),
    };
  }

  private async withinCommandTimeout<T>(work: Promise<T>, what: string): Promise<T> {
    const done = new AbortController();
    const ms = this.options.commandTimeoutMs;
    const expired = this.options.clock.sleep(ms, AbortSignal.any([done.signal, this.shutdown.signal])).then(
      () => {
        const error = new Error(`${what} took longer than ${ms} ms`);
        error.name = 'TimeoutError';
        throw error;
      },
      () => new Promise<never>(() => undefined),
    );
    try {
      return await Promise.race([work, expired]);
    } finally {
      done.abort();
    }
  }

  /** The gateway with this id, or a 404. */
  entityOf(gatewayId: string): GatewayEntity {
    const entity = this.options.tenant.gatewaysById.get(gatewayId);
    if (!entity) throw notFound(`Gateway ${gatewayId} not found`);
    return entity;
  }

  /** The gateway's current state, brought up to now. */
  stateOf(entity: GatewayEntity): GatewayState {
    let state = this.states.get(entity.id);
    if (!state) {
      state = createGatewayState(entity, this.startedAt);
      this.applyScenario(state, this.startedAt);
      this.states.set(entity.id, state);
    }
    this.settleWithEvents(state);
    return state;
  }

  /**
   * Brings every touched gateway up to now and keeps the event log in step: a restart raises a
   * GATEWAY_SHUTDOWN_ALARM (Offline, Major) that clears when the gateway is back. Call before listing events.
   */
  refreshOutages(): void {
    for (const state of this.states.values()) this.settleWithEvents(state);
  }

  private settleWithEvents(state: GatewayState): void {
    const now = this.options.clock.now();
    settleWithPingWatchdog(state, now, this.options.timings);
    const { entity } = state;
    const open = this.outages.get(entity.id);
    if (open && isOnline(state, now)) {
      open.endTs = state.bootedAt;
      open.state = 'Clear';
      this.outages.delete(entity.id);
    } else if (!open && state.offlineUntil > now && !entity.isOfflineFromStart) {
      const event: EventEntity = {
        id: this.eventIds.uuid(),
        startTs: state.offlineUntil - this.options.timings.rebootMs,
        endTs: null,
        source: 'GATEWAY',
        entityId: entity.id,
        entityName: entity.gatewayMac,
        eventName: 'GATEWAY_SHUTDOWN_ALARM',
        eventType: 'Offline',
        severity: 'Major',
        state: 'Raised',
        ituType: 'equipmentAlarm',
        details: `${entity.name} is restarting`,
        customerId: entity.customerId,
      };
      this.options.tenant.events.push(event);
      this.outages.set(entity.id, event);
    }
  }

  /** ONLINE or OFFLINE now, without creating state for a gateway nobody has talked to. */
  statusOf(entity: GatewayEntity): 'ONLINE' | 'OFFLINE' {
    const state = this.states.get(entity.id);
    if (!state) return entity.isOfflineFromStart ? 'OFFLINE' : 'ONLINE';
    return isOnline(this.stateOf(entity), this.options.clock.now()) ? 'ONLINE' : 'OFFLINE';
  }

  /** When the gateway was last heard: now while online. */
  lastSeenTimeOf(entity: GatewayEntity): number {
    if (entity.isOfflineFromStart) return this.startedAt - 86_400_000 - (entity.index % 97) * 60_000;
    const state = this.states.get(entity.id);
    if (!state) return lastHeartbeat(this.options.clock.now());
    return this.stateOf(entity).lastSeenTime;
  }

  /** The BSP version the gateway runs now (an upgrade may have changed it). */
  bspVersionOf(entity: GatewayEntity): string {
    return this.states.get(entity.id)?.bspVersion ?? entity.bspVersion;
  }

  /**
   * A text that changes whenever any gateway's listed fields (status, lastSeenTime, BSP version) change: the
   * heartbeat plus every gateway that differs from how an untouched gateway lists. Costs one step per gateway
   * that has state, not per gateway of the tenant.
   */
  listingSignature(): string {
    const now = this.options.clock.now();
    const heartbeat = lastHeartbeat(now);
    let signature = String(heartbeat);
    for (const state of this.states.values()) {
      settle(state, now, this.options.timings);
      const { entity } = state;
      const isDefault =
        state.bspVersion === entity.bspVersion &&
        (entity.isOfflineFromStart || (isOnline(state, now) && state.lastSeenTime === heartbeat));
      if (!isDefault)
        signature += `|${entity.index}:${isOnline(state, now) ? 1 : 0}:${state.lastSeenTime}:${state.bspVersion}`;
    }
    return signature;
  }

  /**
   * Runs a command: validates its body against the catalogue (400 naming each field), refuses newest-BSP-only
   * commands on older BSPs (400), waits `commandTimeoutMs` and answers 408 (errorCode 2) when the gateway is
   * offline (or leaves the command unanswered: its faults), and otherwise answers what the simulated gateway does,
   * unless its faults refuse the command or ignore the change.
   */
  async runCommand(
    entity: GatewayEntity,
    commandName: string,
    body: unknown,
    signal?: AbortSignal,
  ): Promise<unknown> {
    if (!isCommandName(commandName)) throw notFound(`Unknown gateway command ${commandName}`);
    const definition = gatewayCommands[commandName];
    const request = this.parseRequest(commandName, body);
    const state = this.stateOf(entity);
    if (
      'newestBspOnly' in definition &&
      definition.newestBspOnly &&
      state.bspVersion !== NEWEST_BSP_VERSION
    ) {
      throw badArgument(
        `${commandName} needs BSP ${NEWEST_BSP_VERSION}; gateway ${entity.name} runs BSP ${state.bspVersion} — upgrade it first`,
      );
    }
    const isOffline = !isOnline(state, this.options.clock.now());
    if (isOffline || takeUnanswered(state.faults)) {
      await this.waitForTimeout(signal);
      throw new SimulatorError(
        408,
        ERROR_CODES.GENERAL,
        `Gateway ${entity.name} did not answer ${commandName} within ${this.options.commandTimeoutMs} ms${isOffline ? ' (it is offline)' : ''}`,
      );
    }
    const faulty = faultyAnswer(state.faults, commandName);
    if (faulty) return faulty;
    const context: CommandContext = {
      state,
      now: this.options.clock.now(),
      timings: this.options.timings,
      tunnels: this.boundedTunnels,
    };
    const handler = COMMAND_HANDLERS[commandName] as (context: CommandContext, request: unknown) => unknown;
    const answer = this.scenarios.adjustAnswer(commandName, context, await handler(context, request));
    // A command that restarted the gateway (reboot, restore, a watchdog reboot) drops its tunnels, as hardware does.
    if (!isOnline(state, this.options.clock.now())) {
      this.settleWithEvents(state);
      await this.dropTunnels(entity);
    }
    return answer;
  }

  private async dropTunnels(entity: GatewayEntity): Promise<void> {
    try {
      await this.options.tunnels?.closeTunnels(entity.id);
    } catch (error) {
      console.error(`OAM simulator: closing the tunnels of ${entity.name} failed`, error);
    }
  }

  /**
   * The fault switches of a gateway (simulator/gateways/faults.ts), to turn on in-process: they act on the
   * commands that follow, whether they come over HTTP or through `runCommand`.
   */
  faultsOf(entity: GatewayEntity): GatewayFaults {
    return this.stateOf(entity).faults;
  }

  /** Reboots the gateway now, as its own reboot command or shell would: OFFLINE for the reboot time. */
  reboot(entity: GatewayEntity): void {
    const state = this.stateOf(entity);
    startReboot(state, this.options.clock.now(), this.options.timings);
    this.settleWithEvents(state);
  }

  /** Gives a gateway (or `*`: every gateway without its own) a scenario's faults, from now on (a test or demo). */
  setScenario(target: string, faults: readonly ScenarioFault[]): void {
    this.scenarios.set(target, faults);
    const now = this.options.clock.now();
    for (const entity of this.options.tenant.gateways)
      if (target === '*' || entity.id === target) clearAlarmsOf(this.options.tenant.events, entity.id, now);
    for (const state of this.states.values())
      if (target === '*' || state.entity.id === target) this.applyScenario(state, now);
  }

  private applyScenario(state: GatewayState, now: number): void {
    if (!this.scenarios.faultsOf(state.entity.id)) return;
    this.scenarios.apply(state, now);
  }

  /** Ends every wait for an offline gateway (used when the simulator closes). */
  close(): void {
    this.shutdown.abort(new Error('simulator closed'));
  }

  private parseRequest(commandName: CommandName, body: unknown): unknown {
    const definition = gatewayCommands[commandName];
    if (definition.bodyKind === 'none') return undefined;
    // A command whose body is an empty object also accepts no body at all.
    const value = body === NO_BODY ? (definition.bodyKind === 'empty' ? {} : undefined) : body;
    return parseOrThrow(definition.request, value, `${commandName} request`);
  }

  private async waitForTimeout(signal?: AbortSignal): Promise<void> {
    const signals = [this.shutdown.signal, ...(signal ? [signal] : [])];
    await this.options.clock.sleep(this.options.commandTimeoutMs, AbortSignal.any(signals));
  }
}
