import { badArgument } from '../failure';
import { hashString, noise } from '../random';
import { NEWEST_BSP_VERSION } from '../tenant';
import type { CommandContext, CommandHandlers } from './context';
import {
  checkWanWatchdog,
  isCellularConnected,
  MODEM_ATTACH_MS,
  workingApn,
  type GatewayState,
} from './state';

/** Networks in range of every simulated modem; the first is the SIM's home network. */
export const AVAILABLE_NETWORKS = [
  { MCC: '302', mnc: '720', name: 'Rogers' },
  { MCC: '302', mnc: '610', name: 'Bell' },
  { MCC: '302', mnc: '220', name: 'Telus' },
] as const;

/** Wireless-modem commands: identity, network, RF, profile, call statistics, APNs, PDP profiles. */
export const modemCommands: CommandHandlers<
  | 'getWmDeviceInformation'
  | 'getWmHomeNetworkBranch'
  | 'getWmRfInformation'
  | 'getWmNetworkInfo'
  | 'setWmPreferredNetwork'
  | 'getWmActiveProfileParameters'
  | 'getWmCallStatistics'
  | 'getWmApns'
  | 'getWmPDP_Profiles'
  | 'modifyWmPDP_Profiles'
  | 'addWmApn'
  | 'updateWmApn'
  | 'deleteWmApn'
  | 'getWmStatusApn'
> = {
  getWmDeviceInformation({ state }) {
    const digits = String(hashString(state.entity.id)).padStart(10, '0');
    return {
      manufacturer: 'Quectel',
      model: 'EG25-G',
      revision: 'EG25GGBR07A08M2G',
      imei: `86${digits}${String(state.entity.index % 1000).padStart(3, '0')}`,
      imsi: `302720${digits.slice(0, 9)}`,
      iccid: `8930272${digits}00`,
      simStatus: 'READY',
    };
  },

  getWmHomeNetworkBranch({ state, now }) {
    const connected = isCellularConnected(state, now);
    return {
      homeNetwork: currentNetwork(state).name,
      roamingStatus: 'Off',
      dataCapabilities: 'LTE',
      sessionState: connected ? 'ATTACHED' : 'DETACHED',
      dataBearer: connected ? 'LTE' : 'NONE',
      dormancyStatus: connected ? 'CHANNEL ACTIVE' : 'CHANNEL DORMANT',
      luRejectCause: connected ? 'NONE' : 'PDP AUTHENTICATION FAILURE',
    };
  },

  getWmRfInformation({ state, now }) {
    // Signal wanders around a per-gateway mean every two seconds, like a live modem reading.
    const bucket = Math.floor(now / 2_000);
    const key = state.entity.id;
    const mean = -70 - (hashString(key) % 30);
    const value = (name: string, center: number, spread: number) =>
      Math.round(center + noise(`${key}:${name}`, bucket) * spread);
    return {
      radioInterface: 'LTE',
      activeBandClass: 4,
      activeChannel: 2175,
      signalStrength: value('rssi', mean, 4),
      ecio: value('ecio', -6, 2),
      io: value('io', mean + 5, 3),
      sinr: value('sinr', 28 + (mean + 70) / 2, 3),
      rsrq: value('rsrq', -9, 2),
      ...(state.bspVersion === NEWEST_BSP_VERSION ? { cellid: 0x1a2b000 + (hashString(key) % 4096) } : {}),
    };
  },

  getWmNetworkInfo({ state }) {
    const current = currentNetwork(state);
    return {
      availableNetworks: [
        ...AVAILABLE_NETWORKS.map((network) => ({
          ...network,
          active: network === current ? ('Current' as const) : ('Available' as const),
        })),
        { MCC: '302', mnc: '490', name: 'Freedom', active: 'Unknown' as const },
      ],
    };
  },

  setWmPreferredNetwork({ state, now }, { mcc, mnc }) {
    const network = AVAILABLE_NETWORKS.find((candidate) => candidate.MCC === mcc && candidate.mnc === mnc);
    if (!network)
      throw badArgument(
        `No network ${mcc}-${mnc} in range: choose one that getWmNetworkInfo lists as Available`,
      );
    state.preferredNetwork = { mcc, mnc };
    state.modemAttachedAt = now + MODEM_ATTACH_MS;
    return { status: `OK: registering on ${network.name} (${mcc}-${mnc})` };
  },

  getWmActiveProfileParameters({ state, now }) {
    const apn = workingApn(state);
    const connected = isCellularConnected(state, now);
    return {
      pdpType: 'IPV4',
      authentication: 'NONE',
      profileName: 'default',
      apnName: apn?.name ?? '',
      userName: '',
      ipAddress: connected
        ? `10.64.${Math.floor(state.entity.index / 250) % 250}.${(state.entity.index % 250) + 2}`
        : '0.0.0.0',
      primaryDNS: connected ? '10.0.0.53' : '0.0.0.0',
      secondaryDNS: connected ? '10.0.1.53' : '0.0.0.0',
    };
  },

  getWmCallStatistics({ state, now }) {
    if (!isCellularConnected(state, now)) {
      return {
        callStatus: 'NOT CONNECTED',
        bytesTransferred: 0,
        bytesReceived: 0,
        currentTxRate: 0,
        currentRxRate: 0,
        maxTxRate: 0,
        maxRxRate: 0,
      };
    }
    const seconds = Math.max(0, (now - state.modemAttachedAt) / 1000);
    const bucket = Math.floor(now / 2_000);
    return {
      callStatus: 'CONNECTED',
      bytesTransferred: Math.floor(seconds * 310),
      bytesReceived: Math.floor(seconds * 540),
      currentTxRate: Math.round(2400 + noise(`${state.entity.id}:tx`, bucket) * 800),
      currentRxRate: Math.round(4300 + noise(`${state.entity.id}:rx`, bucket) * 1200),
      maxTxRate: 50_000_000,
      maxRxRate: 150_000_000,
    };
  },

  getWmApns({ state }) {
    const apn = workingApn(state);
    return { workingIdx: apn?.idx ?? -1, apns: state.configuration.apns.map((item) => ({ ...item })) };
  },

  getWmPDP_Profiles({ state }) {
    return structuredClone(state.configuration.pdpProfiles);
  },

  modifyWmPDP_Profiles({ state }, request) {
    state.configuration.pdpProfiles = structuredClone(request);
    return { status: 'OK' };
  },

  addWmApn(context, { name }) {
    const { state } = context;
    if (state.configuration.apns.some((apn) => apn.name === name))
      throw badArgument(`name: APN ${name} is already in the list`);
    return changeApns(context, () => {
      const idx = state.nextApnIdx++;
      state.configuration.apns.push({ name, type: 0, idxModem: idx + 1, idx });
    });
  },

  updateWmApn(context, request) {
    const apn = findApn(context.state, request.idx);
    return changeApns(context, () => Object.assign(apn, request));
  },

  deleteWmApn(context, idx) {
    findApn(context.state, idx);
    return changeApns(context, () => {
      context.state.configuration.apns = context.state.configuration.apns.filter((apn) => apn.idx !== idx);
    });
  },

  getWmStatusApn({ state, now }) {
    return { status: isCellularConnected(state, now) ? 'CONNECTED' : 'NOT CONNECTED', simStatus: 'READY' };
  },
};

function currentNetwork(state: GatewayState) {
  const preferred = state.preferredNetwork;
  return (
    AVAILABLE_NETWORKS.find(
      (network) => preferred && network.MCC === preferred.mcc && network.mnc === preferred.mnc,
    ) ?? AVAILABLE_NETWORKS[0]
  );
}

function findApn(state: GatewayState, idx: number) {
  const apn = state.configuration.apns.find((candidate) => candidate.idx === idx);
  if (!apn) {
    const known = state.configuration.apns.map((candidate) => candidate.idx).join(', ') || 'none';
    throw badArgument(`No APN with idx ${idx} (APNs: ${known})`);
  }
  return apn;
}

/** Applies an APN change: the modem re-attaches, and a gateway left with no working WAN link reboots. */
function changeApns({ state, now, timings }: CommandContext, change: () => void) {
  const previous = structuredClone(state.configuration);
  const before = workingApn(state)?.name;
  change();
  if (workingApn(state)?.name !== before) state.modemAttachedAt = now + MODEM_ATTACH_MS;
  const cutOff = checkWanWatchdog(state, now, previous, timings);
  return { status: cutOff ? 'OK: no WAN link left, the gateway is rebooting' : 'OK' };
}
