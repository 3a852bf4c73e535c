import type { EnhancedEvent } from '../../shared/api/events';
import type { MessageKey } from '../../shared/i18n';
import type { AcceptanceItem } from '../../shared/visit/acceptance-card';
import { MAX_NAMED_ALARMS, storedMessage as say } from '../../shared/visit/stored-message';
import { parseBackupDate } from '../commissioning/gateway-tasks';
import type { AcceptanceTable } from './acceptance-table';
import { itemOf, unread, type Finding, type GatewayReadings } from './judge';
import { readGpsFix } from './loose-answers';

// The items about the gateway's upkeep rather than its links: position, software, backup, alarms.

/** Position: a GPS fix (no fix: warn, or no-go on models the table says need it). */
export function judgePosition(readings: GatewayReadings, table: AcceptanceTable): AcceptanceItem {
  const { gps } = readings;
  if (!gps) return itemOf('position', []);
  if (!gps.ok) return itemOf('position', [unread('acceptance:unreadGps', gps)]);
  const fix = readGpsFix(gps.value);
  if (fix.hasFix) {
    const at = {
      latitude: fix.latitude.toFixed(6),
      longitude: fix.longitude.toFixed(6),
      ...(fix.kind ? { kind: fix.kind } : {}),
    };
    const key =
      fix.satellites === undefined
        ? fix.kind
          ? 'acceptance:gpsFixKind'
          : 'acceptance:gpsFix'
        : fix.kind
          ? 'acceptance:gpsFixKindSatellites'
          : 'acceptance:gpsFixSatellites';
    return itemOf('position', [
      {
        verdict: 'go',
        text: say(key, fix.satellites === undefined ? at : { ...at, count: fix.satellites }),
      },
    ]);
  }
  const isRequired = readings.model !== undefined && table.gpsRequiredModels.includes(readings.model);
  return itemOf('position', [
    {
      verdict: isRequired ? 'no-go' : 'warn',
      text: fix.kind ? say('acceptance:noGpsFixKind', { kind: fix.kind }) : say('acceptance:noGpsFix'),
      fix: { text: say('acceptance:fixGpsAntenna'), target: 'diagnostics' },
    },
  ]);
}

/** Software: nothing upgradable, and the last install or upgrade succeeded. */
export function judgeSoftware(readings: GatewayReadings): AcceptanceItem {
  const findings: Finding[] = [];
  const fix = { text: say('acceptance:fixUpgrade'), target: 'software' as const };
  const { upgradable, lastInstall } = readings;
  if (upgradable && !upgradable.ok) findings.push(unread('acceptance:unreadUpgradable', upgradable));
  if (upgradable?.ok)
    findings.push(
      upgradable.value.length === 0
        ? { verdict: 'go', text: say('acceptance:softwareNewest') }
        : {
            verdict: 'warn',
            text: say('acceptance:packagesBehind', {
              count: upgradable.value.length,
              packages: upgradable.value
                .map((item) => `${item.name} ${item.ver} → ${item.newVer}`)
                .join(', '),
            }),
            fix,
          },
    );
  if (lastInstall && !lastInstall.ok) findings.push(unread('acceptance:unreadLastInstall', lastInstall));
  if (lastInstall?.ok) {
    const { lastOperation, lastStatus } = lastInstall.value;
    // The operation is named when the gateway says which (an API value such as a package name, shown as it is).
    const named = Boolean(lastOperation && lastOperation !== 'none');
    const operation = { operation: lastOperation ?? '', status: lastStatus };
    const install = (plain: MessageKey, withOperation: MessageKey) =>
      say(named ? withOperation : plain, operation);
    // lastStatus codes: 0 succeeded, 1 in progress, 2 failed (API assumption, docs/api.md).
    if (lastStatus === 2)
      findings.push({
        verdict: 'no-go',
        text: install('acceptance:installFailed', 'acceptance:installFailedOperation'),
        fix: { text: say('acceptance:fixRunUpgradeAgain'), target: 'software' },
      });
    else if (lastStatus === 1)
      findings.push({
        verdict: 'warn',
        text: install('acceptance:installRunning', 'acceptance:installRunningOperation'),
        fix: { text: say('acceptance:fixWaitInstall'), target: 'software' },
      });
    else if (lastStatus === 0)
      findings.push({
        verdict: 'go',
        text:
          lastOperation === 'none'
            ? say('acceptance:noInstallFailed')
            : install('acceptance:installSucceeded', 'acceptance:installSucceededOperation'),
      });
    else
      findings.push({
        verdict: 'unknown',
        text: install('acceptance:installStatusUnknown', 'acceptance:installStatusUnknownOperation'),
      });
  }
  return itemOf('software', findings);
}

/** Backup: one younger than the table's age exists. */
export function judgeBackup(
  readings: GatewayReadings,
  table: AcceptanceTable,
  now: number,
  describeTime: (at: number) => string,
): AcceptanceItem {
  const { backups } = readings;
  if (!backups) return itemOf('backup', []);
  if (!backups.ok) return itemOf('backup', [unread('acceptance:unreadBackups', backups)]);
  const dated = backups.value.backups
    .map((backup) => ({ ...backup, at: parseBackupDate(backup.date) }))
    .filter((backup): backup is typeof backup & { at: number } => backup.at !== null)
    .sort((left, right) => right.at - left.at);
  const newest = dated[0];
  if (newest && now - newest.at <= table.backupMaxAgeHours * 3_600_000)
    return itemOf('backup', [
      {
        verdict: 'go',
        text: say('acceptance:backupMade', { name: newest.description, time: describeTime(newest.at) }),
      },
    ]);
  return itemOf('backup', [
    {
      verdict: 'no-go',
      text: newest
        ? say('acceptance:backupTooOld', {
            count: table.backupMaxAgeHours,
            name: newest.description,
            time: describeTime(newest.at),
          })
        : say('acceptance:noBackup'),
      fix: { text: say('acceptance:fixMakeBackup'), target: 'backups' },
    },
  ]);
}

/** The event name a restart raises (simulator and API assumption: an Offline GATEWAY_SHUTDOWN_ALARM). */
const RESTART_EVENT = 'GATEWAY_SHUTDOWN_ALARM';

/** Alarms: none raised within the window that has not cleared; restarts within it counted. */
export function judgeAlarms(readings: GatewayReadings, table: AcceptanceTable, now: number): AcceptanceItem {
  const { events } = readings;
  if (!events) return itemOf('alarms', []);
  if (!events.ok) return itemOf('alarms', [unread('acceptance:unreadAlarms', events)]);
  const since = now - table.alarmWindowMinutes * 60_000;
  const alarms = events.value.filter((event) => event.eventType !== 'Events');
  const isRaised = (event: EnhancedEvent) => event.endTs === null && event.state !== 'Clear';
  const recentRaised = alarms.filter((event) => isRaised(event) && event.startTs >= since);
  const olderRaised = alarms.filter((event) => isRaised(event) && event.startTs < since);
  const restarts = alarms.filter((event) => event.eventName === RESTART_EVENT && event.startTs >= since);
  // The alarms are kept by their API name and severity; the words for them are written when shown.
  const alarmList = (list: EnhancedEvent[]) => {
    const seen = new Map(list.map((event) => [`${event.eventName}\u0000${event.severity}`, event]));
    return [...seen.values()]
      .slice(0, MAX_NAMED_ALARMS)
      .map((event) => ({ name: event.eventName, severity: event.severity }));
  };
  const findings: Finding[] = [];
  const minutes = table.alarmWindowMinutes;
  if (restarts.length >= 2)
    findings.push({
      verdict: 'no-go',
      text: say('acceptance:restarts', { count: restarts.length, minutes }),
      fix: { text: say('acceptance:fixRestarts'), target: 'firewall' },
    });
  if (recentRaised.length > 0)
    findings.push({
      verdict: 'no-go',
      text: { ...say('acceptance:raisedRecently', { minutes }), alarms: alarmList(recentRaised) },
      fix: { text: say('acceptance:fixAlarmCause'), target: 'diagnostics' },
    });
  if (olderRaised.length > 0)
    findings.push({
      verdict: 'warn',
      text: { ...say('acceptance:raisedEarlier'), alarms: alarmList(olderRaised) },
      fix: { text: say('acceptance:fixAlarmOrTell'), target: 'diagnostics' },
    });
  if (findings.length === 0)
    findings.push({ verdict: 'go', text: say('acceptance:noAlarmRaised', { minutes }) });
  return itemOf('alarms', findings);
}
