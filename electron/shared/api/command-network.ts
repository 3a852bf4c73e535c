import { z } from 'zod';
import { IpAddressSchema } from './common';
import {
  command,
  EMPTY,
  index,
  requiredAs,
  text,
  UNKNOWN,
  type GatewayCommandDefinition,
} from './command-definition';
import { ConnectivityTypeSchema, FirewallConfigurationSchema } from './command-records';

/** The WAN and firewall commands of the spec, keyed by name (part of gatewayCommands, in catalogue order). */
export const networkCommands = {
  getConnectivityTypes: command({
    name: 'getConnectivityTypes',
    group: 'WAN',
    risk: 'read',
    bodyKind: 'empty',
    request: EMPTY,
    response: z.array(ConnectivityTypeSchema),
  }),
  setPreferredFallbackConnectivityType: command({
    name: 'setPreferredFallbackConnectivityType',
    group: 'WAN',
    risk: 'disruptive',
    bodyKind: 'json',
    request: z.strictObject({ preferredIdx: index('preferredIdx'), fallbackIdx: index('fallbackIdx') }),
    response: UNKNOWN,
  }),
  setPreferredPingIpAddress: command({
    name: 'setPreferredPingIpAddress',
    group: 'WAN',
    risk: 'change',
    bodyKind: 'json',
    request: z.strictObject({ ipAddr: requiredAs(IpAddressSchema, 'ipAddr', 'commands:ruleIpAddress') }),
    response: UNKNOWN,
  }),
  getPreferredPingIpAddress: command({
    name: 'getPreferredPingIpAddress',
    group: 'WAN',
    risk: 'read',
    bodyKind: 'empty',
    request: EMPTY,
    response: z.looseObject({ ipAddr: text }),
  }),
  getFirewallConfiguration: command({
    name: 'getFirewallConfiguration',
    group: 'firewall',
    risk: 'read',
    bodyKind: 'empty',
    request: EMPTY,
    response: UNKNOWN,
  }),
  setFirewallConfiguration: command({
    name: 'setFirewallConfiguration',
    group: 'firewall',
    risk: 'disruptive',
    bodyKind: 'json',
    request: FirewallConfigurationSchema,
    response: UNKNOWN,
  }),
} satisfies Record<string, GatewayCommandDefinition>;
