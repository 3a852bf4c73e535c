import { z } from 'zod';
import { gatewayCommands } from '../../../../electron/shared/api/commands';
import {
  ApnSchema,
  BackupSchema,
  ConnectivityTypeSchema,
} from '../../../../electron/shared/api/command-records';
import { EnhancedEventSchema } from '../../../../electron/shared/api/events';
import { pageSchema } from '../../../../electron/shared/api/common';
import { packSectionProblem, type PackSection } from '../../../../electron/shared/site-pack-file';

/**
 * The site pack's sections read into facts the offline gateway page shows as labelled cards. Each section is
 * checked against the answer's shape in the command catalogue: a section that does not fit is `unreadable` (the
 * page offers its raw answer as a secondary view), one the pack could not read is `not-read` with the pack's
 * reason, one the pack does not hold is `missing`.
 */
export type PackFact<Value> =
  | { kind: 'fact'; value: Value }
  | { kind: 'not-read'; reason: string }
  | { kind: 'unreadable'; raw: unknown }
  | { kind: 'missing' };

const InfoSchema = gatewayCommands.getGatewayInfo.response;
/** Interfaces and modem identity, as getGatewayInfo answers them. */
export type PackInfo = z.infer<typeof InfoSchema>;

const WanLinksSchema = z.array(ConnectivityTypeSchema);
/** The WAN links, with which is preferred and which is the fallback. */
export type PackWanLink = z.infer<typeof ConnectivityTypeSchema>;

const ApnListSchema = z.looseObject({ workingIdx: z.int(), apns: z.array(ApnSchema) });
/** The APNs and which one the modem works with (`workingIdx`). */
export type PackApns = z.infer<typeof ApnListSchema>;

// The catalogue's firewall schema is the request's (stricter on limits); an answer is read more leniently.
const FirewallSchema = z.looseObject({
  enabled: z.boolean(),
  doSPrevention: z
    .looseObject({
      enabled: z.boolean(),
      perMinLimit: z.number().optional(),
      burstLimit: z.number().optional(),
    })
    .optional(),
  ssh: z.looseObject({ enabled: z.boolean() }).optional(),
  ping: z
    .looseObject({
      enabled: z.boolean(),
      limit: z
        .looseObject({
          enabled: z.boolean(),
          pingPerMinLimit: z.number().optional(),
          pingBurstLimit: z.number().optional(),
        })
        .optional(),
    })
    .optional(),
  filters: z.array(z.unknown()).optional(),
});
/** The firewall's settings. */
export type PackFirewall = z.infer<typeof FirewallSchema>;

const BackupListSchema = z.looseObject({ backups: z.array(BackupSchema) });
/** The backups kept on the gateway. */
export type PackBackup = z.infer<typeof BackupSchema>;

// getSoftwareVersions' answer is not described by the spec: the shape the simulator and known gateways answer.
const SoftwareSchema = z.looseObject({
  bspVersion: z.string().optional(),
  packages: z.array(z.looseObject({ name: z.string(), ver: z.string() })),
});
/** The installed software: the BSP version and each package's version. */
export type PackSoftware = z.infer<typeof SoftwareSchema>;

const AlarmPageSchema = pageSchema(EnhancedEventSchema);
/** The raised alarms the pack read. */
export type PackAlarm = z.infer<typeof EnhancedEventSchema>;

function readSection<Value>(section: PackSection | undefined, schema: z.ZodType<Value>): PackFact<Value> {
  if (!section) return { kind: 'missing' };
  if (!('value' in section)) return { kind: 'not-read', reason: packSectionProblem(section) };
  const parsed = schema.safeParse(section.value);
  return parsed.success ? { kind: 'fact', value: parsed.data } : { kind: 'unreadable', raw: section.value };
}

/** Every section a pack may hold for a gateway, read (events are shown by the page's event list). */
export interface PackFacts {
  info: PackFact<PackInfo>;
  wanLinks: PackFact<PackWanLink[]>;
  apns: PackFact<PackApns>;
  firewall: PackFact<PackFirewall>;
  backups: PackFact<PackBackup[]>;
  software: PackFact<PackSoftware>;
  alarms: PackFact<PackAlarm[]>;
}

/** Reads a pack's sections for one gateway. */
export function packFactsOf(sections: Partial<Record<string, PackSection>>): PackFacts {
  const backups = readSection(sections.backups, BackupListSchema);
  const alarms = readSection(sections.alarms, AlarmPageSchema);
  return {
    info: readSection(sections.info, InfoSchema),
    wanLinks: readSection(sections.wanLinks, WanLinksSchema),
    apns: readSection(sections.apns, ApnListSchema),
    firewall: readSection(sections.firewall, FirewallSchema),
    backups: backups.kind === 'fact' ? { kind: 'fact', value: backups.value.backups } : backups,
    software: readSection(sections.software, SoftwareSchema),
    alarms: alarms.kind === 'fact' ? { kind: 'fact', value: alarms.value.data } : alarms,
  };
}

/** A backup's date as the gateway wrote it (an ISO local date-time, no zone): "2026-11-24 09:30". */
export function backupDateText(date: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(date);
  return match ? `${match[1]} ${match[2]}` : date;
}
