import { badArgument } from '../failure';
import type { CommandHandlers } from './context';
import { linkName } from './diagnostics';
import { CELLULAR_INDEX, checkWanWatchdog, ETHERNET_INDEX } from './state';

const LINKS = [
  { index: ETHERNET_INDEX, type: 'Ethernet' },
  { index: CELLULAR_INDEX, type: 'Cellular' },
] as const;

/** WAN commands: the two links with preferred/fallback, and the address the WAN check pings. */
export const wanCommands: CommandHandlers<
  | 'getConnectivityTypes'
  | 'setPreferredFallbackConnectivityType'
  | 'setPreferredPingIpAddress'
  | 'getPreferredPingIpAddress'
> = {
  getConnectivityTypes({ state }) {
    const { preferredIdx, fallbackIdx } = state.configuration;
    return LINKS.map((link) => ({
      ...link,
      preferred: link.index === preferredIdx,
      fallback: link.index === fallbackIdx,
    }));
  },

  setPreferredFallbackConnectivityType({ state, now, timings }, { preferredIdx, fallbackIdx }) {
    for (const [field, index] of [
      ['preferredIdx', preferredIdx],
      ['fallbackIdx', fallbackIdx],
    ] as const) {
      if (!LINKS.some((link) => link.index === index)) {
        throw badArgument(`${field}: ${index} is not a connectivity index (0 Ethernet, 1 Cellular)`);
      }
    }
    const previous = structuredClone(state.configuration);
    state.configuration.preferredIdx = preferredIdx;
    state.configuration.fallbackIdx = fallbackIdx;
    const cutOff = checkWanWatchdog(state, now, previous, timings);
    return {
      status: cutOff
        ? `OK: neither ${linkName(preferredIdx)} nor ${linkName(fallbackIdx)} works, the gateway is rebooting`
        : 'OK',
    };
  },

  setPreferredPingIpAddress({ state }, { ipAddr }) {
    state.configuration.preferredPingIp = ipAddr;
    return { status: 'OK' };
  },

  getPreferredPingIpAddress({ state }) {
    return { ipAddr: state.configuration.preferredPingIp };
  },
};
