import type { CommandName } from '../electron/shared/api/commands';
import type { CommandContext } from './gateways/context';
import {
  CELLULAR_INDEX,
  ETHERNET_INDEX,
  INSTALL_STATUS,
  isOnline,
  settle,
  startReboot,
  toLocalDateTime,
  type GatewayState,
  type GatewayTimings,
} from './gateways/state';

/**
 * What a scenario can do to a simulated gateway, so that every item of the site acceptance check can be shown
 * failing. `healthy` alone removes the demo tenant's built-in defects (wrong APN, a disconnected antenna, stale
 * packages, no recent backup); every other name adds one fault on top of that healthy gateway.
 */
export const SCENARIO_FAULTS = [
  'healthy',
  'weak-lte',
  'no-gps',
  'quiet-concentrator',
  'crc-storm',
  'firewall-blocks-ping',
  'stale-software',
  'failed-upgrade',
  'no-backup',
  'clock-skew',
] as const;
/** One fault of a scenario. */
export type ScenarioFault = (typeof SCENARIO_FAULTS)[number];

/** How long after boot a gateway whose ping check gets no reply restarts itself (the vendor's "every few minutes"). */
export const PING_CHECK_RESTART_MS = 5 * 60_000;

/**
 * How far a `clock-skew` gateway's clock is from the simulator's: 7 min 12 s behind, well past the acceptance
 * table's 2 minutes, and a sum of minutes and seconds so that the triage's words for it can be checked.
 */
export const CLOCK_SKEW_MS = -(7 * 60_000 + 12_000);

/** Scenarios per gateway id, `*` for every gateway. */
export type ScenarioSpec = Record<string, readonly ScenarioFault[]>;

/** True when `name` is a fault of SCENARIO_FAULTS. */
export function isScenarioFault(name: string): name is ScenarioFault {
  return (SCENARIO_FAULTS as readonly string[]).includes(name);
}

/**
 * Reads `--scenario` values: `weak-lte,no-gps` (every gateway) or `<gatewayId>=weak-lte,no-gps` (one gateway),
 * repeatable; throws an Error naming an unknown fault.
 */
export function parseScenarioFlag(values: readonly string[]): ScenarioSpec {
  const spec: Record<string, ScenarioFault[]> = {};
  for (const value of values) {
    const [target, list] = value.includes('=')
      ? (value.split(/=(.*)/s, 2) as [string, string])
      : ['*', value];
    const faults = list
      .split(',')
      .map((name) => name.trim())
      .filter((name) => name !== '');
    for (const fault of faults)
      if (!isScenarioFault(fault))
        throw new Error(`--scenario: unknown fault "${fault}" (known: ${SCENARIO_FAULTS.join(', ')})`);
    spec[target.trim() || '*'] = [...(spec[target.trim() || '*'] ?? []), ...(faults as ScenarioFault[])];
  }
  return spec;
}

/** Whether the gateway's firewall drops ping (the replies its WAN check waits for included). */
export function isPingBlocked(state: GatewayState): boolean {
  const { firewall } = state.configuration;
  return firewall.enabled && !firewall.ping.enabled;
}

/**
 * The scenarios of a simulator run: which faults each gateway has, applied to its state when it is created (or
 * when a test sets them), and to the answers of the commands they touch.
 */
export class Scenarios {
  private readonly spec = new Map<string, ReadonlySet<ScenarioFault>>();

  constructor(spec: ScenarioSpec = {}) {
    for (const [target, faults] of Object.entries(spec)) this.spec.set(target, new Set(faults));
  }

  /** The faults of a gateway (its own, else every gateway's), or undefined when it has no scenario. */
  faultsOf(gatewayId: string): ReadonlySet<ScenarioFault> | undefined {
    return this.spec.get(gatewayId) ?? this.spec.get('*');
  }

  /** True when the gateway has this fault. */
  has(gatewayId: string, fault: ScenarioFault): boolean {
    return this.faultsOf(gatewayId)?.has(fault) ?? false;
  }

  /** Sets a gateway's faults (`*`: every gateway without its own); the caller applies them to existing state. */
  set(target: string, faults: readonly ScenarioFault[]): void {
    this.spec.set(target, new Set(faults));
  }

  /**
   * How far the gateway's own clock (its consoles' `date`) is from the simulator's, in ms: CLOCK_SKEW_MS under
   * `clock-skew`, else 0. Asked at each read, so a scenario set later moves the clock at once.
   */
  clockOffsetOf(gatewayId: string): number {
    return this.has(gatewayId, 'clock-skew') ? CLOCK_SKEW_MS : 0;
  }

  /** Makes a gateway's state what its scenario says (nothing for a gateway without one). */
  apply(state: GatewayState, now: number): void {
    const faults = this.faultsOf(state.entity.id);
    if (!faults) return;
    makeHealthy(state, now);
    const { configuration } = state;
    if (faults.has('firewall-blocks-ping')) configuration.firewall.ping.enabled = false;
    if (faults.has('stale-software'))
      for (const item of state.packages)
        if (item.name === 'kona-pkt-forwarder') Object.assign(item, { newVer: '4.3.0', special: 0 });
    if (faults.has('failed-upgrade'))
      state.lastInstall = { lastOperation: 'upgrade kona-pkt-forwarder', lastStatus: INSTALL_STATUS.FAILED };
    if (faults.has('no-backup')) state.backups = [];
  }

  /** The answer a command gives under the gateway's scenario (and the firewall's rule on ping). */
  adjustAnswer(name: CommandName, context: CommandContext, answer: unknown): unknown {
    const { state, now } = context;
    const id = state.entity.id;
    if (name === 'ping' && isPingBlocked(state)) return { ...(answer as object), packets_recv: 0 };
    if (name === 'getWmRfInformation' && this.has(id, 'weak-lte'))
      return { ...(answer as object), rsrq: -22, sinr: -4, signalStrength: -104 };
    if (name === 'getWmRfInformation' && this.faultsOf(id)) {
      // A healthy gateway's modem has a good signal: the demo tenant's weakest means are raised to −80 dBm.
      const rf = answer as { signalStrength: number };
      return { ...rf, signalStrength: Math.max(rf.signalStrength, -80) };
    }
    if (name === 'getGpsCoordinates' && this.has(id, 'no-gps'))
      return { latitude: 0, longitude: 0, altitude: 0, fix: 'none', satellites: 0, timestamp: now };
    if (name === 'getRadioStatistics' && this.has(id, 'quiet-concentrator')) {
      return { ...(answer as object), ...frozenCounters() };
    }
    if (name === 'getRadioStatistics' && this.has(id, 'crc-storm')) {
      const counters = answer as { numRxPackets: number; rxCrcOkPackets: number; rxCrcErrPackets: number };
      const crcOk = Math.floor(counters.numRxPackets * 0.4);
      return { ...counters, rxCrcOkPackets: crcOk, rxCrcErrPackets: counters.numRxPackets - crcOk };
    }
    return answer;
  }
}

/** A concentrator that has heard nothing since it started (it still sends). */
function frozenCounters() {
  return {
    numRxPackets: 0,
    rxFineTimestamp: 0,
    rxNoFineTimestamp: 0,
    rxCrcOkPackets: 0,
    rxCrcErrPackets: 0,
    noMatch: 0,
  };
}

/** The alarms of a gateway given a scenario, cleared a minute before `now` (a healthy gateway raises none). */
export function clearAlarmsOf(
  events: Array<{ entityId: string; endTs: number | null; state: string }>,
  gatewayId: string,
  now: number,
): void {
  for (const event of events)
    if (event.entityId === gatewayId && event.endTs === null) {
      event.endTs = now - 60_000;
      event.state = 'Clear';
    }
}

/** The demo tenant's built-in defects removed: a working APN, Ethernet preferred when cabled, nothing behind. */
function makeHealthy(state: GatewayState, now: number): void {
  const { configuration, entity } = state;
  configuration.apns = [{ name: entity.simApn, type: 0, idxModem: 1, idx: 0 }];
  state.nextApnIdx = 1;
  configuration.preferredIdx = entity.hasEthernetLink ? ETHERNET_INDEX : CELLULAR_INDEX;
  configuration.fallbackIdx = entity.hasEthernetLink ? CELLULAR_INDEX : ETHERNET_INDEX;
  configuration.firewall.enabled = true;
  configuration.firewall.ping.enabled = true;
  for (const item of state.packages) {
    delete item.newVer;
    delete item.special;
  }
  state.lastInstall = { lastOperation: 'none', lastStatus: INSTALL_STATUS.SUCCEEDED };
  const at = now - 3_600_000;
  state.backups = [
    ...state.backups.filter((backup) => backup.description !== 'commissioning'),
    {
      description: 'commissioning',
      date: toLocalDateTime(at),
      index: 1,
      configuration: structuredClone(configuration),
    },
  ];
  state.antennasHealthy = true;
}

/**
 * Brings a gateway up to now the way its WAN watchdog does: while its firewall drops the ping check's replies, it
 * restarts itself PING_CHECK_RESTART_MS after each boot (settle finishes each restart). Returns the restarts.
 */
export function settleWithPingWatchdog(state: GatewayState, now: number, timings: GatewayTimings): number {
  let restarts = 0;
  settle(state, now, timings);
  while (
    isPingBlocked(state) &&
    isOnline(state, now) &&
    now >= state.bootedAt + PING_CHECK_RESTART_MS &&
    restarts < 1_000
  ) {
    startReboot(state, state.bootedAt + PING_CHECK_RESTART_MS, timings);
    restarts++;
    settle(state, now, timings);
  }
  return restarts;
}
