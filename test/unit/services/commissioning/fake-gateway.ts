import { ApiError } from '../../../../electron/services/api';
import { commanderAnswering } from '../../../helpers/commander';
import type { Apn, FirewallConfiguration } from '../../../../electron/shared/api';

/** A small stateful gateway for unit tests: enough of each command family for the wizards and tasks. */
export interface FakeGatewayState {
  firewall: FirewallConfiguration;
  apns: Apn[];
  simApn: string;
  preferredIdx: number;
  fallbackIdx: number;
  pingTarget: string;
  pingReceives: boolean;
  backups: Array<{ description: string; date: string; index: number; snapshot: string }>;
  /** Commands answer 408 while this is above zero; each command call counts it down. */
  silentCalls: number;
  /** Commands whose set is ignored (the gateway answers OK but keeps its old value). */
  ignoresSets: Set<string>;
  /** Commands that fail with 400. */
  refuses: Set<string>;
  lastInstall: { lastOperation: string; lastStatus: number };
  installSteps: number;
  /** Installed package versions, and the newer ones offered; an upgrade moves them when it finishes. */
  packages: Record<string, string>;
  upgrades: Record<string, string>;
  /** An upgrade that finishes without moving any version (the gateway still says it succeeded). */
  keepsVersions: boolean;
}

export function defaultFirewall(): FirewallConfiguration {
  return {
    enabled: true,
    doSPrevention: { enabled: true, perMinLimit: 25, burstLimit: 100 },
    ssh: { enabled: true },
    ping: { enabled: true, limit: { enabled: false, pingPerMinLimit: 60, pingBurstLimit: 10 } },
    filters: [],
  };
}

export function createFakeGateway(overrides: Partial<FakeGatewayState> = {}) {
  const state: FakeGatewayState = {
    firewall: defaultFirewall(),
    apns: [{ name: 'iot.sim.example', type: 0, idxModem: 1, idx: 0 }],
    simApn: 'iot.sim.example',
    preferredIdx: 0,
    fallbackIdx: 1,
    pingTarget: '8.8.8.8',
    pingReceives: true,
    backups: [{ description: 'factory-default', date: '2026-01-01T10:00:00', index: 0, snapshot: '{}' }],
    silentCalls: 0,
    ignoresSets: new Set(),
    refuses: new Set(),
    lastInstall: { lastOperation: 'none', lastStatus: 0 },
    installSteps: 0,
    packages: { 'kona-pkt-forwarder': '4.2.1', 'gps-daemon': '1.0.4' },
    upgrades: { 'kona-pkt-forwarder': '4.3.0' },
    keepsVersions: false,
    ...overrides,
  };
  const calls: Array<{ name: string; request: unknown }> = [];
  let nextApnIdx = Math.max(...state.apns.map((apn) => apn.idx)) + 1;
  const connected = () => state.apns.some((apn) => apn.name === state.simApn);
  const snapshot = () =>
    JSON.stringify({
      firewall: state.firewall,
      apns: state.apns,
      preferredIdx: state.preferredIdx,
      fallbackIdx: state.fallbackIdx,
      pingTarget: state.pingTarget,
    });
  const set = (name: string, change: () => void) => {
    if (!state.ignoresSets.has(name)) change();
    return { status: 'OK' };
  };

  // Requests are validated by the catalogue before they reach a real gateway; the fake trusts its callers.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const handlers: Record<string, (request: any) => unknown> = {
    getBspStatus: () => ({ bspVersion: '5.1.0', status: 'OK' }),
    getGatewayInfo: () => ({
      interfaces: { eth0: '192.168.1.20', wwan0: '10.64.0.2', lo: '127.0.0.1' },
      moduleName: 'EG25',
      moduleProductCode: 'x',
      moduleRevision: 'r',
      moduleSerialNumber: 's',
      custGatewayId: 'c',
    }),
    getConnectivityTypes: () => [
      { index: 0, type: 'Ethernet', preferred: state.preferredIdx === 0, fallback: state.fallbackIdx === 0 },
      { index: 1, type: 'Cellular', preferred: state.preferredIdx === 1, fallback: state.fallbackIdx === 1 },
    ],
    getPreferredPingIpAddress: () => ({ ipAddr: state.pingTarget }),
    setPreferredPingIpAddress: ({ ipAddr }) =>
      set('setPreferredPingIpAddress', () => (state.pingTarget = ipAddr)),
    setPreferredFallbackConnectivityType: ({ preferredIdx, fallbackIdx }) =>
      set('setPreferredFallbackConnectivityType', () => {
        state.preferredIdx = preferredIdx;
        state.fallbackIdx = fallbackIdx;
      }),
    ping: ({ packetsCount }) => ({
      packets_sent: packetsCount,
      packets_recv: state.pingReceives ? packetsCount : 0,
    }),
    getFirewallConfiguration: () => structuredClone(state.firewall),
    setFirewallConfiguration: (request) =>
      set('setFirewallConfiguration', () => (state.firewall = structuredClone(request))),
    getBackups: () => ({
      status: 'OK',
      backups: state.backups.map(({ description, date, index }) => ({ description, date, index })),
    }),
    createBackup: ({ description }) => {
      const index = state.backups.length;
      state.backups.push({ description, date: '2026-01-15T12:00:00', index, snapshot: snapshot() });
      return { status: 'OK', index };
    },
    restoreBackup: ({ index }) => {
      const backup = state.backups.find((item) => item.index === index);
      if (backup && backup.snapshot !== '{}') Object.assign(state, JSON.parse(backup.snapshot));
      state.silentCalls = 2;
      return { status: 'OK' };
    },
    getWmStatusApn: () => ({ status: connected() ? 'CONNECTED' : 'NOT CONNECTED', simStatus: 'READY' }),
    getWmHomeNetworkBranch: () => ({
      homeNetwork: 'Rogers',
      roamingStatus: 'Off',
      dataCapabilities: 'LTE',
      sessionState: 'ATTACHED',
      dataBearer: 'LTE',
      dormancyStatus: 'x',
      luRejectCause: 'NONE',
    }),
    getWmRfInformation: () => ({
      radioInterface: 'LTE',
      activeBandClass: 4,
      activeChannel: 1,
      signalStrength: -80,
      ecio: -6,
      io: -70,
      sinr: 20,
      rsrq: -9,
    }),
    getWmApns: () => ({ workingIdx: state.apns[0]?.idx ?? -1, apns: structuredClone(state.apns) }),
    getWmPDP_Profiles: () => ({ profiles: [] }),
    getWmActiveProfileParameters: () => ({
      pdpType: 'IPV4',
      authentication: 'NONE',
      profileName: 'default',
      apnName: state.apns[0]?.name ?? '',
      userName: '',
      ipAddress: connected() ? '10.64.0.2' : '0.0.0.0',
      primaryDNS: '',
      secondaryDNS: '',
    }),
    getWmCallStatistics: () => ({
      callStatus: connected() ? 'CONNECTED' : 'NOT CONNECTED',
      bytesTransferred: 0,
      bytesReceived: 0,
      currentTxRate: 0,
      currentRxRate: 0,
      maxTxRate: 0,
      maxRxRate: 0,
    }),
    getWmNetworkInfo: () => {
      throw new ApiError(400, 30, 'getWmNetworkInfo needs BSP 6.0.0', 'getWmNetworkInfo');
    },
    addWmApn: ({ name }) =>
      set('addWmApn', () => state.apns.push({ name, type: 0, idxModem: nextApnIdx + 1, idx: nextApnIdx++ })),
    updateWmApn: (request) =>
      set('updateWmApn', () =>
        Object.assign(
          state.apns.find((apn) => apn.idx === request.idx)!,
          request,
        ),
      ),
    deleteWmApn: (idx) =>
      set('deleteWmApn', () => (state.apns = state.apns.filter((apn) => apn.idx !== idx))),
    getLastInstallUpgradeStatus: () => {
      if (state.installSteps > 0) {
        state.installSteps--;
        if (state.installSteps === 0) {
          state.silentCalls = 2;
          state.lastInstall = { ...state.lastInstall, lastStatus: 0 };
          if (!state.keepsVersions) {
            Object.assign(state.packages, state.upgrades);
            state.upgrades = {};
          }
        }
        return { ...state.lastInstall, lastStatus: 1, progress: 50 };
      }
      return { ...state.lastInstall };
    },
    getUpgradableSoftware: () =>
      Object.entries(state.upgrades).map(([name, newVer]) => ({
        name,
        ver: state.packages[name] ?? '',
        newVer,
        special: 0,
      })),
    getSoftwareVersions: () => ({
      packages: Object.entries(state.packages).map(([name, ver]) => ({ name, ver })),
    }),
    upgradeSoftware: ({ packageToUpgrade }) => {
      state.lastInstall = { lastOperation: `upgrade ${packageToUpgrade}`, lastStatus: 1 };
      state.installSteps = 3;
      return { status: 'STARTED' };
    },
    reboot: () => {
      state.silentCalls = 2;
      return {};
    },
  };

  const commander = commanderAnswering(({ name, request, options }) => {
    options?.signal?.throwIfAborted();
    calls.push({ name, request });
    if (state.silentCalls > 0) {
      state.silentCalls--;
      throw new ApiError(408, 2, `Gateway did not answer ${name}`, name);
    }
    if (state.refuses.has(name)) throw new ApiError(400, 30, `${name} refused`, name);
    const handler = handlers[name];
    if (!handler) throw new ApiError(404, 32, `Unknown gateway command ${name}`, name);
    return handler(request);
  });

  return { state, calls, commander, names: () => calls.map((call) => call.name) };
}
