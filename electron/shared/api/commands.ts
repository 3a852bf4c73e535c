import { z } from 'zod';
import { HostSchema, IpAddressSchema, PortSchema } from './common';

/** What a gateway command is about; the wizards and the console group commands by it. */
export const COMMAND_GROUPS = [
  'diagnostics',
  'location',
  'backups',
  'software',
  'modem',
  'WAN',
  'firewall',
] as const;
export type CommandGroup = (typeof COMMAND_GROUPS)[number];

/**
 * How much a command can hurt: `read` changes nothing, `change` changes the gateway's configuration,
 * `disruptive` can cut the gateway off or restart it — the UI names the consequence and asks first.
 */
export type CommandRisk = 'read' | 'change' | 'disruptive';

/**
 * How the request body is sent: `empty` = `{}`; `json` = the request object; `bare-integer` = a JSON number
 * alone (deleteWmApn); `none` = no body at all (resetRadioStatisticsCounters).
 */
export type CommandBodyKind = 'empty' | 'json' | 'bare-integer' | 'none';

/** One gateway command of the spec's table. */
export interface GatewayCommandDefinition<
  Request extends z.ZodType = z.ZodType,
  Response extends z.ZodType = z.ZodType,
> {
  /** The name used in the app (the spec's path where it shows one). */
  name: string;
  /** Last path segment: POST /api/gateway/{gatewayId}/command/<path>. */
  path: string;
  group: CommandGroup;
  risk: CommandRisk;
  bodyKind: CommandBodyKind;
  request: Request;
  /** `z.unknown()` where the spec shows no response. */
  response: Response;
  /** Available only on the newest BSP. */
  newestBspOnly?: boolean;
  /** One line a technician reads before running it. */
  summary: string;
  /** For disruptive commands: what will happen, said before asking for confirmation. */
  consequence?: string;
}

const EMPTY = z.strictObject({});
const NONE = z.undefined();
const UNKNOWN = z.unknown();
const count = z.int();
const text = z.string();
const required = (field: string) => z.string(`${field} is required`).min(1, `${field} must not be empty`);
const index = (field: string) =>
  z.int(`${field} must be a whole number`).nonnegative(`${field} must not be negative`);

/** Longest backup description, in characters (the gateway's limit for a backup's name). */
export const BACKUP_DESCRIPTION_MAX = 128;

/** The backup description, also used as its name on the gateway. */
const BackupDescriptionSchema = z
  .string('description is required')
  .trim()
  .min(1, 'description must not be empty')
  .max(BACKUP_DESCRIPTION_MAX, `description must be at most ${BACKUP_DESCRIPTION_MAX} characters`);

/** Firewall configuration as setFirewallConfiguration takes it; filters' element shape is not in the spec. */
export const FirewallConfigurationSchema = z.looseObject({
  enabled: z.boolean('enabled must be true or false'),
  doSPrevention: z.looseObject({
    enabled: z.boolean(),
    perMinLimit: index('perMinLimit'),
    burstLimit: index('burstLimit'),
  }),
  ssh: z.looseObject({ enabled: z.boolean() }),
  ping: z.looseObject({
    enabled: z.boolean(),
    limit: z.looseObject({
      enabled: z.boolean(),
      pingPerMinLimit: index('pingPerMinLimit'),
      pingBurstLimit: index('pingBurstLimit'),
    }),
  }),
  filters: z.array(z.unknown()),
});
export type FirewallConfiguration = z.infer<typeof FirewallConfigurationSchema>;

/** Longest ping the app asks for (not in the spec: keeps a command inside the server's command timeout). */
export const PING_PACKETS_MAX = 100;

/** Connectivity types as getConnectivityTypes lists them. */
export const ConnectivityTypeSchema = z.looseObject({
  index: z.int(),
  type: z.string(),
  preferred: z.boolean(),
  fallback: z.boolean(),
});
export type ConnectivityType = z.infer<typeof ConnectivityTypeSchema>;

/** An APN as getWmApns lists it and updateWmApn takes it. */
export const ApnSchema = z.looseObject({
  name: required('name'),
  type: z.int('type must be a whole number'),
  idxModem: z.int('idxModem must be a whole number'),
  idx: z.int('idx must be a whole number'),
});
export type Apn = z.infer<typeof ApnSchema>;

/** A backup as getBackups lists it: date is an ISO 8601 local date-time. */
export const BackupSchema = z.looseObject({ description: text, date: text, index: z.int() });

/** The modem RF information; cellid only on the newest BSP. */
export const RfInformationSchema = z.looseObject({
  radioInterface: text,
  activeBandClass: count,
  activeChannel: count,
  signalStrength: count,
  ecio: count,
  io: count,
  sinr: count,
  rsrq: count,
  cellid: z.union([z.string(), z.number()]).optional(),
});
export type RfInformation = z.infer<typeof RfInformationSchema>;

function command<Request extends z.ZodType, Response extends z.ZodType>(
  definition: Omit<GatewayCommandDefinition<Request, Response>, 'path'> & { path?: string },
): GatewayCommandDefinition<Request, Response> {
  return { ...definition, path: definition.path ?? definition.name };
}

/** Every gateway command of the spec, keyed by name. */
export const gatewayCommands = {
  ping: command({
    name: 'ping',
    group: 'diagnostics',
    risk: 'read',
    bodyKind: 'json',
    summary: 'Ping a host from the gateway.',
    request: z.strictObject({
      packetsCount: z
        .int('packetsCount must be a whole number')
        .min(1, 'packetsCount must be at least 1')
        .max(PING_PACKETS_MAX, `packetsCount must be at most ${PING_PACKETS_MAX}`),
      destination: HostSchema,
    }),
    response: z.looseObject({ packets_sent: count, packets_recv: count }),
  }),
  reboot: command({
    name: 'reboot',
    group: 'diagnostics',
    risk: 'disruptive',
    bodyKind: 'empty',
    summary: 'Restart the gateway.',
    consequence: 'The gateway restarts and is offline for a few minutes; open terminals and tunnels drop.',
    request: EMPTY,
    response: UNKNOWN,
  }),
  getAntennasCount: command({
    name: 'getAntennasCount',
    group: 'diagnostics',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Count the connected antennas.',
    request: EMPTY,
    response: z.looseObject({ antennasCount: count, status: text }),
  }),
  getPublicKey: command({
    name: 'getPublicKey',
    group: 'diagnostics',
    risk: 'read',
    bodyKind: 'empty',
    summary: "Read the gateway's public key.",
    request: EMPTY,
    response: UNKNOWN,
  }),
  reverseSsh: command({
    name: 'reverseSsh',
    group: 'diagnostics',
    risk: 'change',
    bodyKind: 'json',
    summary: 'Ask the gateway to open a reverse SSH tunnel to a relay.',
    request: z.strictObject({
      options: z.string(),
      sshRevPort: PortSchema,
      username: required('username'),
      password: required('password'),
      sshHost: HostSchema,
      sshPort: PortSchema,
    }),
    response: UNKNOWN,
  }),
  stopReverseSsh: command({
    name: 'stopReverseSsh',
    group: 'diagnostics',
    risk: 'change',
    bodyKind: 'empty',
    summary: 'Close every reverse SSH tunnel of the gateway.',
    request: EMPTY,
    response: UNKNOWN,
  }),
  getGpsCoordinates: command({
    name: 'getGpsCoordinates',
    group: 'location',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the GPS position.',
    request: EMPTY,
    response: UNKNOWN,
  }),
  getGatewayInfo: command({
    name: 'getGatewayInfo',
    group: 'diagnostics',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read interfaces and modem identity.',
    request: EMPTY,
    response: z.looseObject({
      interfaces: z.looseObject({ eth0: text.nullish(), wwan0: text.nullish(), lo: text.nullish() }),
      moduleName: text,
      moduleProductCode: text,
      moduleRevision: text,
      moduleSerialNumber: text,
      custGatewayId: text,
    }),
  }),
  getRadioStatistics: command({
    name: 'getRadioStatistics',
    group: 'diagnostics',
    risk: 'read',
    bodyKind: 'json',
    summary: 'Read the packet counters of one radio.',
    request: z.strictObject({ index: index('index') }),
    response: z.looseObject({
      numTxPackets: count,
      numRxPackets: count,
      rxFineTimestamp: count,
      rxNoFineTimestamp: count,
      rxCrcOkPackets: count,
      rxCrcErrPackets: count,
      noMatch: count,
    }),
  }),
  resetRadioStatisticsCounters: command({
    name: 'resetRadioStatisticsCounters',
    group: 'diagnostics',
    risk: 'change',
    bodyKind: 'none',
    summary: 'Reset the radio packet counters to zero.',
    request: NONE,
    response: UNKNOWN,
  }),
  getSpectralScanParams: command({
    name: 'getSpectralScanParams',
    group: 'diagnostics',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the spectral scan parameters.',
    request: EMPTY,
    response: z.looseObject({
      antenna: count,
      samplePeriod: count,
      num125kChan: count,
      startFreq125k: count,
      stepFreq125k: count,
      num500kChan: count,
      startFreq500k: count,
      stepFreq500k: count,
      minRx: count,
      maxRx: count,
    }),
  }),
  getSpectralScanProgress: command({
    name: 'getSpectralScanProgress',
    group: 'diagnostics',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read how far the spectral scan is.',
    request: EMPTY,
    response: UNKNOWN,
  }),
  getSpectralScanResults: command({
    name: 'getSpectralScanResults',
    group: 'diagnostics',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the spectral scan results.',
    request: EMPTY,
    response: UNKNOWN,
  }),
  getBackups: command({
    name: 'getBackups',
    group: 'backups',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'List the backups on the gateway.',
    request: EMPTY,
    response: z.looseObject({ status: text, backups: z.array(BackupSchema) }),
  }),
  createBackup: command({
    name: 'createBackup',
    group: 'backups',
    risk: 'change',
    bodyKind: 'json',
    summary: 'Save the configuration as a named backup.',
    request: z.strictObject({ description: BackupDescriptionSchema }),
    response: UNKNOWN,
  }),
  restoreBackup: command({
    name: 'restoreBackup',
    group: 'backups',
    risk: 'disruptive',
    bodyKind: 'json',
    summary: 'Restore a backup.',
    consequence: 'The configuration is replaced by the backup and the gateway restarts.',
    request: z.strictObject({ index: index('index') }),
    response: UNKNOWN,
  }),
  getSoftwareVersions: command({
    name: 'getSoftwareVersions',
    group: 'software',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the installed software versions.',
    request: EMPTY,
    response: UNKNOWN,
  }),
  getUpgradableSoftware: command({
    name: 'getUpgradableSoftware',
    group: 'software',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'List packages with a newer version.',
    request: EMPTY,
    response: z.array(z.looseObject({ name: text, ver: text, newVer: text, special: count })),
  }),
  getInstallableSoftware: command({
    name: 'getInstallableSoftware',
    group: 'software',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'List packages that can be installed.',
    request: EMPTY,
    response: z.array(z.looseObject({ name: text, ver: text })),
  }),
  upgradeSoftware: command({
    name: 'upgradeSoftware',
    group: 'software',
    risk: 'disruptive',
    bodyKind: 'json',
    summary: 'Upgrade one package, or all of them.',
    consequence:
      'The gateway downloads and installs the upgrade, then restarts: it is offline for a few minutes (longer on a slow link), forwards no LoRa packets meanwhile, and open terminals and tunnels drop.',
    request: z.strictObject({ packageToUpgrade: required('packageToUpgrade') }),
    response: UNKNOWN,
  }),
  installSoftware: command({
    name: 'installSoftware',
    group: 'software',
    risk: 'disruptive',
    bodyKind: 'json',
    summary: 'Install a package from the installable list.',
    consequence:
      'The gateway downloads and installs the package and may restart: if it does, it is offline for a few minutes and open terminals and tunnels drop.',
    request: z.strictObject({ packageToInstall: required('packageToInstall') }),
    response: UNKNOWN,
  }),
  getLastInstallUpgradeStatus: command({
    name: 'getLastInstallUpgradeStatus',
    group: 'software',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the outcome of the last install or upgrade.',
    request: EMPTY,
    response: z.looseObject({ lastOperation: text, lastStatus: count }),
  }),
  getBspStatus: command({
    name: 'getBspStatus',
    group: 'software',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the board support package status.',
    request: EMPTY,
    response: UNKNOWN,
  }),
  getWmDeviceInformation: command({
    name: 'getWmDeviceInformation',
    group: 'modem',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the cellular modem identity.',
    request: EMPTY,
    response: UNKNOWN,
  }),
  getWmHomeNetworkBranch: command({
    name: 'getWmHomeNetworkBranch',
    group: 'modem',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the home network and session state.',
    request: EMPTY,
    response: z.looseObject({
      homeNetwork: text,
      roamingStatus: text,
      dataCapabilities: text,
      sessionState: text,
      dataBearer: text,
      dormancyStatus: text,
      luRejectCause: text,
    }),
  }),
  getWmRfInformation: command({
    name: 'getWmRfInformation',
    group: 'modem',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the cellular signal (strength, SINR, RSRQ, Ec/Io).',
    request: EMPTY,
    response: RfInformationSchema,
  }),
  getWmNetworkInfo: command({
    name: 'getWmNetworkInfo',
    group: 'modem',
    risk: 'read',
    bodyKind: 'empty',
    newestBspOnly: true,
    summary: 'List the cellular networks in range.',
    request: EMPTY,
    response: z.looseObject({
      availableNetworks: z.array(
        z.looseObject({
          mnc: text,
          MCC: text,
          name: text,
          active: z.enum(['Unknown', 'Current', 'Available']),
        }),
      ),
    }),
  }),
  setWmPreferredNetwork: command({
    name: 'setWmPreferredNetwork',
    group: 'modem',
    risk: 'disruptive',
    bodyKind: 'json',
    newestBspOnly: true,
    summary: 'Choose the cellular network to register on.',
    consequence:
      'The modem leaves its current network; cellular data stops until it registers on the new one.',
    request: z.strictObject({
      mcc: z.string().regex(/^\d{3}$/, 'mcc must be 3 digits'),
      mnc: z.string().regex(/^\d{2,3}$/, 'mnc must be 2 or 3 digits'),
    }),
    response: z.looseObject({ status: text }),
  }),
  getWmActiveProfileParameters: command({
    name: 'getWmActiveProfileParameters',
    group: 'modem',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the active data profile (APN, IP address, DNS).',
    request: EMPTY,
    response: z.looseObject({
      pdpType: text,
      authentication: text,
      profileName: text,
      apnName: text,
      userName: text,
      ipAddress: text,
      primaryDNS: text,
      secondaryDNS: text,
    }),
  }),
  getWmCallStatistics: command({
    name: 'getWmCallStatistics',
    group: 'modem',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the data call status and traffic.',
    request: EMPTY,
    response: z.looseObject({
      callStatus: text,
      bytesTransferred: count,
      bytesReceived: count,
      currentTxRate: count,
      currentRxRate: count,
      maxTxRate: count,
      maxRxRate: count,
    }),
  }),
  getWmApns: command({
    name: 'getWmApns',
    group: 'modem',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'List the APNs and the one in use.',
    request: EMPTY,
    response: z.looseObject({ workingIdx: z.int(), apns: z.array(ApnSchema) }),
  }),
  getWmPDP_Profiles: command({
    name: 'getWmPDP_Profiles',
    group: 'modem',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the PDP profiles.',
    request: EMPTY,
    response: UNKNOWN,
  }),
  modifyWmPDP_Profiles: command({
    name: 'modifyWmPDP_Profiles',
    group: 'modem',
    risk: 'change',
    bodyKind: 'json',
    summary: 'Change the PDP profiles (body shape not in the spec: any JSON object).',
    request: z.record(z.string(), z.unknown()),
    response: UNKNOWN,
  }),
  addWmApn: command({
    name: 'addWmApn',
    group: 'modem',
    risk: 'change',
    bodyKind: 'json',
    summary: 'Add an APN.',
    request: z.strictObject({ name: required('name') }),
    response: UNKNOWN,
  }),
  updateWmApn: command({
    name: 'updateWmApn',
    group: 'modem',
    risk: 'change',
    bodyKind: 'json',
    summary: 'Change an APN.',
    request: z.strictObject({
      name: required('name'),
      type: z.int('type must be a whole number'),
      idxModem: index('idxModem'),
      idx: index('idx'),
    }),
    response: UNKNOWN,
  }),
  deleteWmApn: command({
    name: 'deleteWmApn',
    group: 'modem',
    risk: 'disruptive',
    bodyKind: 'bare-integer',
    summary: 'Delete an APN by its index.',
    consequence: 'If this APN is in use, cellular data stops until another APN connects.',
    request: index('the APN index'),
    response: UNKNOWN,
  }),
  getWmStatusApn: command({
    name: 'getWmStatusApn',
    group: 'modem',
    risk: 'read',
    bodyKind: 'empty',
    summary: 'Read the APN and SIM status.',
    request: EMPTY,
    response: z.looseObject({ status: text, simStatus: text }),
  }),
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

/** Name of a command in the catalogue. */
export type CommandName = keyof typeof gatewayCommands;
/** Names of every command, in catalogue order. */
export const COMMAND_NAMES = Object.keys(gatewayCommands) as CommandName[];
/** The request a command takes (what the caller passes before encoding). */
export type CommandRequest<Name extends CommandName> = z.input<(typeof gatewayCommands)[Name]['request']>;
/** The answer a command gives, once validated. */
export type CommandResponse<Name extends CommandName> = z.infer<(typeof gatewayCommands)[Name]['response']>;

/** True when `name` is a command of the catalogue. */
export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(gatewayCommands, name);
}

/** True when `request` is what command `name` takes: checked against the command's request schema. */
export function isCommandRequest<Name extends CommandName>(
  name: Name,
  request: unknown,
): request is CommandRequest<Name> {
  return gatewayCommands[name].request.safeParse(request).success;
}

/** The body to send for a command, as JSON text or undefined for no body. */
export function encodeCommandBody(
  definition: GatewayCommandDefinition,
  request: unknown,
): string | undefined {
  switch (definition.bodyKind) {
    case 'none':
      return undefined;
    case 'empty':
      return '{}';
    default:
      return JSON.stringify(request);
  }
}
