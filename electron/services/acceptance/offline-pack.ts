import { z } from 'zod';
import { gatewayCommands } from '../../shared/api/commands';
import { pageSchema } from '../../shared/api/common';
import { EnhancedEventSchema } from '../../shared/api/events';
import type { MessageKey } from '../../shared/i18n';
import type { PackGatewayDetails, PackSection } from '../../shared/site-pack-file';
import type { AcceptanceItem } from '../../shared/visit/acceptance-card';
import { storedMessage as say } from '../../shared/visit/stored-message';
import type { AcceptanceTable } from './acceptance-table';
import { judgeAlarms, judgeBackup } from './judge-upkeep';

/** What the profile's site pack holds about the gateway: its sections and when they were read. */
export interface OfflinePackFacts {
  /** When the pack read the gateway's details (epoch ms). */
  readAt: number;
  sections: PackGatewayDetails['sections'];
}

const AlarmPageSchema = pageSchema(EnhancedEventSchema);
// getSoftwareVersions' answer is not described by the spec: the shape the simulator and known gateways answer.
const SoftwareSchema = z.looseObject({
  packages: z.array(z.looseObject({ name: z.string(), ver: z.string() })),
});

/** A section's answer read with `schema`, or undefined when the pack holds none or one of another shape. */
function factOf<Value>(section: PackSection | undefined, schema: z.ZodType<Value>): Value | undefined {
  if (!section || !('value' in section)) return undefined;
  const parsed = schema.safeParse(section.value);
  return parsed.success ? parsed.data : undefined;
}

/** An item an offline card cannot judge: its sentence names what it needs. */
export function needsServer(id: AcceptanceItem['id'], key: MessageKey): AcceptanceItem {
  return { id, verdict: 'needs-server', findings: [say(key)] };
}

/**
 * The backup, alarms and software items of an offline card, from the site pack where it holds them, each opening
 * with "As of the site pack of <time>" (what changed since is not seen); "needs the server" where it does not.
 * The backup is judged against the laptop's `now` (a backup only ages); the alarms at the pack's time (the
 * window is "the last hour" before that). The pack reads the installed versions, not what is upgradable nor how
 * the last install ended: the software item lists the versions and still says what needs the server.
 */
export function judgeFromPack(input: {
  pack: OfflinePackFacts | undefined;
  table: AcceptanceTable;
  now: number;
  describeTime: (at: number) => string;
}): { software: AcceptanceItem; backup: AcceptanceItem; alarms: AcceptanceItem } {
  const { pack, table, now, describeTime } = input;
  const asOf = pack ? say('acceptance:offlineAsOfPack', { time: describeTime(pack.readAt) }) : undefined;
  const opened = (item: AcceptanceItem): AcceptanceItem =>
    asOf ? { ...item, findings: [asOf, ...item.findings] } : item;

  const backups = factOf(pack?.sections.backups, gatewayCommands.getBackups.response);
  const backup = backups
    ? opened(judgeBackup({ backups: { ok: true, value: backups } }, table, now, describeTime))
    : needsServer('backup', 'acceptance:needsServerBackup');

  const alarmPage = factOf(pack?.sections.alarms, AlarmPageSchema);
  const alarms =
    alarmPage && pack
      ? opened(judgeAlarms({ events: { ok: true, value: alarmPage.data } }, table, pack.readAt))
      : needsServer('alarms', 'acceptance:needsServerAlarms');

  const versions = factOf(pack?.sections.software, SoftwareSchema);
  const software: AcceptanceItem = versions
    ? opened({
        id: 'software',
        verdict: 'needs-server',
        findings: [
          versions.packages.length === 0
            ? say('acceptance:offlineNoPackages')
            : say('acceptance:offlineInstalled', {
                packages: versions.packages.map((item) => `${item.name} ${item.ver}`).join(', '),
              }),
          say('acceptance:needsServerSoftware'),
        ],
      })
    : needsServer('software', 'acceptance:needsServerSoftware');
  return { software, backup, alarms };
}
