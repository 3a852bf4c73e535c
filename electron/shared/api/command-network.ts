import { z } from 'zod';
import { IpAddressSchema } from './common';
import { command, EMPTY, index, text, UNKNOWN, type GatewayCommandDefinition } from './command-definition';
import { ConnectivityTypeSchema, FirewallConfigurationSchema } from './command-records';

/** The WAN and firewall commands of the spec, keyed by name (part of gatewayCommands, in catalogue order). */
export const networkCommands = {
  getConnectivityTypes: command({
    name: 'getConnectivityTypes',
    group: 'WAN',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'List the WAN links and which is preferred and fallback.',
    request: EMPTY,
    response: z.array(ConnectivityTypeSchema),
  }),
  setPreferredFallbackConnectivityType: command({
    name: 'setPreferredFallbackConnectivityType',
    group: 'WAN',
    risk: 'disruptive',
    bodyKind: 'json',
    summary: 'Choose the preferred and the fallback WAN link.',
    consequence:
      'The gateway switches WAN links; if both fail their ping check it reboots itself and may be cut off.',
    request: z.strictObject({ preferredIdx: index('preferredIdx'), fallbackIdx: index('fallbackIdx') }),
    response: UNKNOWN,
  }),
  setPreferredPingIpAddress: command({
    name: 'setPreferredPingIpAddress',
    group: 'WAN',
    risk: 'change',
    bodyKind: 'json',
    summary: 'Set the address the WAN check pings.',
    request: z.strictObject({ ipAddr: IpAddressSchema }),
    response: UNKNOWN,
  }),
  getPreferredPingIpAddress: command({
    name: 'getPreferredPingIpAddress',
    group: 'WAN',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the address the WAN check pings.',
    request: EMPTY,
    response: z.looseObject({ ipAddr: text }),
  }),
  getFirewallConfiguration: command({
    name: 'getFirewallConfiguration',
    group: 'firewall',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the firewall configuration.',
    request: EMPTY,
    response: UNKNOWN,
  }),
  setFirewallConfiguration: command({
    name: 'setFirewallConfiguration',
    group: 'firewall',
    risk: 'disruptive',
    bodyKind: 'json',
    summary: 'Replace the firewall configuration.',
    consequence: 'A wrong rule can block SSH, ping or the server and cut the gateway off.',
    request: FirewallConfigurationSchema,
    response: UNKNOWN,
  }),
} satisfies Record<string, GatewayCommandDefinition>;
