import type { Apn, FirewallConfiguration } from '../../electron/shared/api/commands';
import { NEWEST_BSP_VERSION, type GatewayEntity } from '../tenant';
import { noFaults, type GatewayFaults } from './faults';

/** Indexes of the two WAN links getConnectivityTypes lists. */
export const ETHERNET_INDEX = 0;
/** Index of the cellular WAN link. */
export const CELLULAR_INDEX = 1;
/** How long the modem takes to attach again after its APN list changes. */
export const MODEM_ATTACH_MS = 4_000;

/** What a backup captures and a restore puts back. */
export interface GatewayConfiguration {
  apns: Apn[];
  preferredIdx: number;
  fallbackIdx: number;
  preferredPingIp: string;
  firewall: FirewallConfiguration;
  pdpProfiles: Record<string, unknown>;
}

/** A backup stored on the gateway. */
export interface StoredBackup {
  description: string;
  date: string;
  index: number;
  configuration: GatewayConfiguration;
}

/** An install or upgrade running on the gateway: downloading, then installing, then a reboot. */
export interface SoftwareJob {
  operation: string;
  packages: Array<{ name: string; version: string }>;
  startedAt: number;
  downloadMs: number;
  installMs: number;
}

/** A software package installed on (or offered to) the gateway. */
export interface SoftwarePackage {
  name: string;
  ver: string;
  newVer?: string;
  special?: number;
}

/** The changing state of one simulated gateway. */
export interface GatewayState {
  entity: GatewayEntity;
  bspVersion: string;
  /** When the gateway last finished booting. */
  bootedAt: number;
  /** While `now < offlineUntil` the gateway is rebooting (OFFLINE; commands time out). */
  offlineUntil: number;
  /** Configuration to put back when the gateway comes back from a watchdog reboot. */
  rollback: GatewayConfiguration | null;
  /** Software changes to apply when the running job's reboot ends. */
  pendingPackages: Array<{ name: string; version: string }> | null;
  configuration: GatewayConfiguration;
  nextApnIdx: number;
  /** The modem is re-attaching until this time. */
  modemAttachedAt: number;
  backups: StoredBackup[];
  packages: SoftwarePackage[];
  installable: SoftwarePackage[];
  job: SoftwareJob | null;
  lastInstall: { lastOperation: string; lastStatus: number };
  radioCountersResetAt: number;
  preferredNetwork: { mcc: string; mnc: string } | null;
  reverseSsh: Record<string, unknown> | null;
  lastSeenTime: number;
  /** Set by a scenario: every antenna connected, whatever the demo tenant's defect (simulator/scenarios.ts). */
  antennasHealthy?: boolean;
  /** The fault switches a test has turned on (simulator/gateways/faults.ts). */
  faults: GatewayFaults;
}

/** Online gateways report to the server this often; lastSeenTime moves in these steps. */
export const HEARTBEAT_MS = 30_000;

/** The last heartbeat at or before `now`. */
export function lastHeartbeat(now: number): number {
  return Math.floor(now / HEARTBEAT_MS) * HEARTBEAT_MS;
}

/** lastStatus of getLastInstallUpgradeStatus (the spec leaves the codes open; docs/api.md). */
export const INSTALL_STATUS = { SUCCEEDED: 0, IN_PROGRESS: 1, FAILED: 2 } as const;

/** Tunables of the simulated hardware. */
export interface GatewayTimings {
  rebootMs: number;
  downloadMs: number;
  installMs: number;
}

/** The default firewall of a fresh gateway. */
export function defaultFirewall(): FirewallConfiguration {
  return {
    enabled: true,
    doSPrevention: { enabled: true, perMinLimit: 25, burstLimit: 100 },
    ssh: { enabled: true },
    ping: { enabled: true, limit: { enabled: false, pingPerMinLimit: 60, pingBurstLimit: 10 } },
    filters: [],
  };
}

const BASE_PACKAGES: Array<[string, string, string | undefined]> = [
  ['kona-pkt-forwarder', '4.2.1', '4.3.0'],
  ['tektelic-oam-agent', '3.1.0', '3.2.2'],
  ['gps-daemon', '1.0.4', undefined],
  ['lte-modem-manager', '2.5.0', '2.6.1'],
];
const INSTALLABLE: Array<[string, string]> = [
  ['lora-basic-station', '2.0.6'],
  ['tektelic-snmp-agent', '1.1.0'],
  ['wireguard-tools', '1.0.2'],
];
const WRONG_APN = 'internet.wrong.example';

/** Creates the state a gateway has when the simulator starts: deterministic from its fixed facts. */
export function createGatewayState(entity: GatewayEntity, startedAt: number): GatewayState {
  // Every fourth gateway with a working Ethernet link has a wrong APN first, so the cellular fallback is broken
  // until a technician fixes it; a gateway without Ethernet always has a working APN (or it could never report).
  const hasWrongApn = entity.hasEthernetLink && entity.index % 4 === 1;
  const apnNames = hasWrongApn ? [WRONG_APN] : [entity.simApn];
  const apns = apnNames.map((name, idx) => ({ name, type: 0, idxModem: idx + 1, idx }));
  const packages: SoftwarePackage[] = [
    {
      name: 'bsp',
      ver: entity.bspVersion,
      ...(entity.bspVersion === NEWEST_BSP_VERSION ? {} : { newVer: NEWEST_BSP_VERSION, special: 1 }),
    },
    ...BASE_PACKAGES.map(([name, ver, newVer]) => ({ name, ver, ...(newVer ? { newVer, special: 0 } : {}) })),
  ];
  const configuration: GatewayConfiguration = {
    apns,
    preferredIdx: ETHERNET_INDEX,
    fallbackIdx: CELLULAR_INDEX,
    preferredPingIp: '8.8.8.8',
    firewall: defaultFirewall(),
    pdpProfiles: { profiles: [{ profileName: 'default', pdpType: 'IPV4', apnName: apns[0]?.name ?? '' }] },
  };
  const bootedAt = startedAt - (3 + (entity.index % 40)) * 3_600_000;
  return {
    entity,
    bspVersion: entity.bspVersion,
    bootedAt,
    offlineUntil: 0,
    rollback: null,
    pendingPackages: null,
    configuration,
    nextApnIdx: apns.length,
    modemAttachedAt: bootedAt,
    backups: [
      {
        description: 'factory-default',
        date: toLocalDateTime(entity.createdTime),
        index: 0,
        configuration: structuredClone(configuration),
      },
    ],
    packages,
    installable: INSTALLABLE.map(([name, ver]) => ({ name, ver })),
    job: null,
    lastInstall: { lastOperation: 'none', lastStatus: INSTALL_STATUS.SUCCEEDED },
    radioCountersResetAt: bootedAt,
    preferredNetwork: null,
    reverseSsh: null,
    lastSeenTime: startedAt,
    faults: noFaults(),
  };
}

/** ISO 8601 local date-time without zone (the gateway's clock runs on UTC here): `2026-01-15T12:00:00`. */
export function toLocalDateTime(timeMs: number): string {
  return new Date(timeMs).toISOString().slice(0, 19);
}

/** True while the gateway is reachable (not offline from the start and not rebooting). */
export function isOnline(state: GatewayState, now: number): boolean {
  return !state.entity.isOfflineFromStart && now >= state.offlineUntil;
}

/** True when the modem has a data call: SIM ready, the working APN matches the SIM, attach finished. */
export function isCellularConnected(state: GatewayState, now: number): boolean {
  return workingApnMatches(state) && now >= state.modemAttachedAt && isOnline(state, now);
}

/** The APN the modem uses: the first one matching its SIM, else the first in the list (which fails). */
export function workingApn(state: GatewayState): Apn | undefined {
  const apns = state.configuration.apns;
  return apns.find((apn) => apnMatchesSim(state, apn.name)) ?? apns[0];
}

function workingApnMatches(state: GatewayState): boolean {
  const apn = workingApn(state);
  return apn !== undefined && apnMatchesSim(state, apn.name);
}

function apnMatchesSim(state: GatewayState, name: string): boolean {
  return name.trim().toLowerCase() === state.entity.simApn.toLowerCase();
}

/** Whether a WAN link (by connectivity index) can carry traffic, ignoring the modem's attach delay. */
export function isLinkWorking(state: GatewayState, index: number): boolean {
  if (index === ETHERNET_INDEX) return state.entity.hasEthernetLink;
  if (index === CELLULAR_INDEX) return workingApnMatches(state);
  return false;
}

/** The link traffic uses now: the preferred link when it works, else the fallback, else none. */
export function activeLink(state: GatewayState, now: number): number | null {
  const { preferredIdx, fallbackIdx } = state.configuration;
  for (const index of [preferredIdx, fallbackIdx]) {
    if (index === CELLULAR_INDEX ? isCellularConnected(state, now) : isLinkWorking(state, index))
      return index;
  }
  return null;
}

/**
 * Brings the state up to `now`: finishes a reboot (applying a pending upgrade or a watchdog rollback) and moves a
 * software job into its reboot when its install phase is over. Called before every read of the state.
 */
export function settle(state: GatewayState, now: number, timings: GatewayTimings): void {
  const job = state.job;
  if (job && now >= job.startedAt + job.downloadMs + job.installMs) {
    state.job = null;
    state.pendingPackages = job.packages;
    state.lastInstall = { lastOperation: job.operation, lastStatus: INSTALL_STATUS.IN_PROGRESS };
    startReboot(state, job.startedAt + job.downloadMs + job.installMs, timings);
  }
  if (state.offlineUntil > 0 && now >= state.offlineUntil) finishReboot(state);
  if (isOnline(state, now)) state.lastSeenTime = Math.max(state.lastSeenTime, lastHeartbeat(now));
}

/** Takes the gateway offline for a reboot that started at `at`. */
export function startReboot(state: GatewayState, at: number, timings: GatewayTimings): void {
  state.offlineUntil = Math.max(state.offlineUntil, at + timings.rebootMs);
  state.lastSeenTime = Math.min(state.lastSeenTime, at);
  state.reverseSsh = null;
}

function finishReboot(state: GatewayState): void {
  const bootedAt = state.offlineUntil;
  state.offlineUntil = 0;
  state.bootedAt = bootedAt;
  state.modemAttachedAt = bootedAt + MODEM_ATTACH_MS;
  state.radioCountersResetAt = bootedAt;
  if (state.rollback) {
    state.configuration = state.rollback;
    state.rollback = null;
  }
  if (state.pendingPackages) {
    const { keepsVersions, failsInstalls, keptPackages } = state.faults;
    for (const change of state.pendingPackages)
      if (!keepsVersions && !failsInstalls && !keptPackages.has(change.name))
        applyPackage(state, change.name, change.version);
    state.pendingPackages = null;
    state.lastInstall = {
      ...state.lastInstall,
      lastStatus: failsInstalls ? INSTALL_STATUS.FAILED : INSTALL_STATUS.SUCCEEDED,
    };
  }
  state.lastSeenTime = bootedAt;
}

function applyPackage(state: GatewayState, name: string, version: string): void {
  if (name === 'bsp') state.bspVersion = version;
  const installed = state.packages.find((candidate) => candidate.name === name);
  if (installed) {
    installed.ver = version;
    delete installed.newVer;
    delete installed.special;
    return;
  }
  state.packages.push({ name, ver: version });
  state.installable = state.installable.filter((candidate) => candidate.name !== name);
}

/**
 * After a WAN or APN change: when neither the preferred nor the fallback link works, the gateway's ping check
 * fails on both, so it reboots itself (assumption) and its watchdog puts the previous configuration back when it
 * returns. Returns true when that happened.
 */
export function checkWanWatchdog(
  state: GatewayState,
  now: number,
  previous: GatewayConfiguration,
  timings: GatewayTimings,
): boolean {
  const { preferredIdx, fallbackIdx } = state.configuration;
  if (isLinkWorking(state, preferredIdx) || isLinkWorking(state, fallbackIdx)) return false;
  state.rollback = previous;
  startReboot(state, now, timings);
  return true;
}
