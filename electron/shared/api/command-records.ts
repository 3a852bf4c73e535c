import { z } from 'zod';
import { count, index, required, rule, text } from './command-definition';

/** Longest backup description, in characters (the gateway's limit for a backup's name). */
export const BACKUP_DESCRIPTION_MAX = 128;

/** The backup description, also used as its name on the gateway. */
export const BackupDescriptionSchema = z
  .string({ error: rule('commands:ruleRequired', 'description') })
  .trim()
  .min(1, { error: rule('commands:ruleNotEmpty', 'description') })
  .max(BACKUP_DESCRIPTION_MAX, {
    error: rule('commands:ruleAtMostCharacters', 'description', { count: BACKUP_DESCRIPTION_MAX }),
  });

/** Firewall configuration as setFirewallConfiguration takes it; filters' element shape is not in the spec. */
export const FirewallConfigurationSchema = z.looseObject({
  enabled: z.boolean({ error: rule('commands:ruleTrueOrFalse', 'enabled') }),
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
  type: z.int({ error: rule('commands:ruleWholeNumber', 'type') }),
  idxModem: z.int({ error: rule('commands:ruleWholeNumber', 'idxModem') }),
  idx: z.int({ error: rule('commands:ruleWholeNumber', 'idx') }),
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
