import type { EnhancedEvent } from '../../shared/api/events';
import type { AcceptanceItem } from '../../shared/visit/acceptance-card';
import { parseBackupDate } from '../commissioning/gateway-tasks';
import type { AcceptanceTable } from './acceptance-table';
import { itemOf, unread, type Finding, type GatewayReadings } from './judge';
import { readGpsFix } from './loose-answers';

// The items about the gateway's upkeep rather than its links: position, software, backup, alarms.

/** Position: a GPS fix (no fix: warn, or no-go on models the table says need it). */
export function judgePosition(readings: GatewayReadings, table: AcceptanceTable): AcceptanceItem {
  const { gps } = readings;
  if (!gps) return itemOf('position', 'Position', []);
  if (!gps.ok) return itemOf('position', 'Position', [unread('The GPS position', gps)]);
  const fix = readGpsFix(gps.value);
  if (fix.hasFix)
    return itemOf('position', 'Position', [
      {
        verdict: 'go',
        text: `GPS fix${fix.kind ? ` (${fix.kind})` : ''} at ${fix.latitude.toFixed(6)}, ${fix.longitude.toFixed(6)}${fix.satellites === undefined ? '' : ` with ${fix.satellites} satellites`}.`,
      },
    ]);
  const isRequired = readings.model !== undefined && table.gpsRequiredModels.includes(readings.model);
  return itemOf('position', 'Position', [
    {
      verdict: isRequired ? 'no-go' : 'warn',
      text: `No GPS fix${fix.kind ? ` (${fix.kind})` : ''}.`,
      fix: {
        text: 'Give the GPS antenna a clear view of the sky (and check its cable), then check again.',
        target: 'diagnostics',
      },
    },
  ]);
}

/** Software: nothing upgradable, and the last install or upgrade succeeded. */
export function judgeSoftware(readings: GatewayReadings): AcceptanceItem {
  const findings: Finding[] = [];
  const fix = { text: 'Upgrade with the Software wizard before you leave.', target: 'software' as const };
  const { upgradable, lastInstall } = readings;
  if (upgradable && !upgradable.ok) findings.push(unread('The upgradable software', upgradable));
  if (upgradable?.ok)
    findings.push(
      upgradable.value.length === 0
        ? { verdict: 'go', text: 'Every package is at its newest version.' }
        : {
            verdict: 'warn',
            text: `${upgradable.value.length} package${upgradable.value.length === 1 ? ' is' : 's are'} behind: ${upgradable.value.map((item) => `${item.name} ${item.ver} → ${item.newVer}`).join(', ')}.`,
            fix,
          },
    );
  if (lastInstall && !lastInstall.ok) findings.push(unread('The last install status', lastInstall));
  if (lastInstall?.ok) {
    const { lastOperation, lastStatus } = lastInstall.value;
    const what =
      lastOperation && lastOperation !== 'none'
        ? `The last install or upgrade (${lastOperation})`
        : 'The last install or upgrade';
    // lastStatus codes: 0 succeeded, 1 in progress, 2 failed (API assumption, docs/api.md).
    if (lastStatus === 2)
      findings.push({
        verdict: 'no-go',
        text: `${what} failed.`,
        fix: {
          text: 'Run the upgrade again with the Software wizard and watch it finish.',
          target: 'software',
        },
      });
    else if (lastStatus === 1)
      findings.push({
        verdict: 'warn',
        text: `${what} is still running.`,
        fix: { text: 'Wait for it to finish, then check again.', target: 'software' },
      });
    else if (lastStatus === 0)
      findings.push({
        verdict: 'go',
        text: lastOperation === 'none' ? 'No install or upgrade has failed.' : `${what} succeeded.`,
      });
    else
      findings.push({
        verdict: 'unknown',
        text: `${what} ended with status ${lastStatus}, which Field Kit does not know.`,
      });
  }
  return itemOf('software', 'Software', findings);
}

/** Backup: one younger than the table's age exists. */
export function judgeBackup(
  readings: GatewayReadings,
  table: AcceptanceTable,
  now: number,
  describeTime: (at: number) => string,
): AcceptanceItem {
  const { backups } = readings;
  if (!backups) return itemOf('backup', 'Backup', []);
  if (!backups.ok) return itemOf('backup', 'Backup', [unread('The backups', backups)]);
  const dated = backups.value.backups
    .map((backup) => ({ ...backup, at: parseBackupDate(backup.date) }))
    .filter((backup): backup is typeof backup & { at: number } => backup.at !== null)
    .sort((left, right) => right.at - left.at);
  const newest = dated[0];
  if (newest && now - newest.at <= table.backupMaxAgeHours * 3_600_000)
    return itemOf('backup', 'Backup', [
      { verdict: 'go', text: `Backup "${newest.description}" was made ${describeTime(newest.at)}.` },
    ]);
  return itemOf('backup', 'Backup', [
    {
      verdict: 'no-go',
      text: newest
        ? `No backup from the last ${table.backupMaxAgeHours} hours; the newest is "${newest.description}" of ${describeTime(newest.at)}.`
        : 'The gateway has no backup.',
      fix: {
        text: 'Make a backup now with the Backups wizard (it asks before it writes).',
        target: 'backups',
      },
    },
  ]);
}

/** The event name a restart raises (simulator and API assumption: an Offline GATEWAY_SHUTDOWN_ALARM). */
const RESTART_EVENT = 'GATEWAY_SHUTDOWN_ALARM';

/** Alarms: none raised within the window that has not cleared; restarts within it counted. */
export function judgeAlarms(readings: GatewayReadings, table: AcceptanceTable, now: number): AcceptanceItem {
  const { events } = readings;
  if (!events) return itemOf('alarms', 'Alarms', []);
  if (!events.ok) return itemOf('alarms', 'Alarms', [unread('The alarms', events)]);
  const since = now - table.alarmWindowMinutes * 60_000;
  const alarms = events.value.filter((event) => event.eventType !== 'Events');
  const isRaised = (event: EnhancedEvent) => event.endTs === null && event.state !== 'Clear';
  const recentRaised = alarms.filter((event) => isRaised(event) && event.startTs >= since);
  const olderRaised = alarms.filter((event) => isRaised(event) && event.startTs < since);
  const restarts = alarms.filter((event) => event.eventName === RESTART_EVENT && event.startTs >= since);
  const names = (list: EnhancedEvent[]) =>
    [...new Set(list.map((event) => `${event.eventName} (${event.severity})`))].join(', ');
  const findings: Finding[] = [];
  const window = `${table.alarmWindowMinutes} minutes`;
  if (restarts.length >= 2)
    findings.push({
      verdict: 'no-go',
      text: `The gateway restarted ${restarts.length} times in the last ${window}.`,
      fix: {
        text: 'Find why it restarts: a firewall that blocks the ping check is the usual cause (Firewall wizard).',
        target: 'firewall',
      },
    });
  if (recentRaised.length > 0)
    findings.push({
      verdict: 'no-go',
      text: `Raised in the last ${window} and not cleared: ${names(recentRaised)}.`,
      fix: {
        text: 'Clear the cause of each alarm (its name says which part), then check again.',
        target: 'diagnostics',
      },
    });
  if (olderRaised.length > 0)
    findings.push({
      verdict: 'warn',
      text: `Still raised from earlier: ${names(olderRaised)}.`,
      fix: {
        text: 'Clear the cause of each alarm or tell the customer why it stays.',
        target: 'diagnostics',
      },
    });
  if (findings.length === 0)
    findings.push({ verdict: 'go', text: `No alarm raised in the last ${window} is still raised.` });
  return itemOf('alarms', 'Alarms', findings);
}
