import { redactSecrets } from '../audit';
import type { RfBest } from '../commissioning/rf-meter';
import type { TriageCheck, TriageResult } from '../../shared/terminal/triage-schemas';
import { describeRoutesAndDns } from '../../shared/terminal/triage-health';
import {
  triageCheckWords,
  triageFindingWords,
  triageSentenceWords,
} from '../../shared/terminal/triage-words';
import { labelOfField } from '../../shared/api/field-labels';
import { UPGRADE_ALL_PACKAGES } from '../../shared/api';
import { flattenReadable, type ReadableField } from '../../shared/report/readable-value';
import { auditOutcomeWords } from '../../shared/report/visit-lines';
import { checksOf, labelOf } from '../../shared/report/recorded-words';
import type { MessageKey, Translator } from '../../shared/i18n';
import type {
  ChangeModel,
  CommandRow,
  Readable,
  Tone,
  TriageModel,
  WordedOutcome,
} from '../../shared/report/report-model';
import {
  describeFollowed,
  foldCommands,
  outcomeWords,
  titleOfCommand,
  type AuditEntry,
  type ChangeSummary,
  type VisitOutcome,
} from '../../shared/report/visit-summary';
import type { RfMeasurement } from './site-visit';

/**
 * How the parts write: the full date-time, the short time on the visit's own day, a number in the report's locale,
 * and the report's words (its language, chosen per export).
 */
export interface PartFormat {
  time(at: number): string;
  clock(at: number): string;
  number(value: number): string;
  translate: Translator;
}

/** A change's outcome in the report's words. */
export function wordOutcome(outcome: VisitOutcome, translate: Translator): WordedOutcome {
  return { tone: outcome, words: outcomeWords(outcome, translate) };
}

/** An audit outcome (`ok`, `failed`, `cancelled`, `unknown`) as it is shown. */
export function wordAuditOutcome(text: string, translate: Translator): WordedOutcome {
  const tone: Tone = text === 'ok' || text === 'cancelled' || text === 'unknown' ? text : 'failed';
  return { tone, words: auditOutcomeWords(text, translate) };
}

/** A value as labelled settings, one per line (pretty JSON only for what is nested too deep), redacted by key. */
export function readableOf(raw: unknown, translate: Translator): Readable {
  return flattenReadable(redactSecrets(raw), 0, translate);
}

/** The settings of a value by their label path ('' for a value that is one setting). */
function leafMap(value: unknown, translate: Translator): Map<string, ReadableField> {
  return new Map(
    value === undefined
      ? []
      : flattenReadable(value, 0, translate).map((field) => [field.label, field] as const),
  );
}

/** Changes whose before → after are package versions by package name. */
const SOFTWARE_CHANGES = new Set([
  'softwareUpgrade',
  'upgradeSoftware',
  'installSoftware',
  'upgrade',
  'install',
]);

/** The setting a fleet change of one value sets, for its row (a firewall patch's settings are labelled). */
const FLEET_SETTINGS: Readonly<Record<string, MessageKey>> = {
  pingTarget: 'document:settingPingTarget',
  apn: 'document:settingApn',
  softwareUpgrade: 'document:settingPackages',
};

function fleetSettingLabel(kind: string, translate: Translator): string {
  return Object.hasOwn(FLEET_SETTINGS, kind)
    ? translate(FLEET_SETTINGS[kind]!)
    : labelOfField(kind, translate);
}

/** What a fleet change sent: its words ("Ping target: 8.8.8.8"), or a firewall patch's settings. */
function describeFleetSent(kind: string, request: unknown, translate: Translator): ChangeModel['sent'] {
  if (typeof request !== 'object' || request === null) return undefined;
  const change = request as { ipAddr?: unknown; name?: unknown; packageName?: unknown; patch?: unknown };
  switch (kind) {
    case 'pingTarget':
      return typeof change.ipAddr === 'string'
        ? { text: translate('document:sentPingTarget', { address: change.ipAddr }) }
        : undefined;
    case 'apn':
      return typeof change.name === 'string'
        ? { text: translate('document:sentApn', { name: change.name }) }
        : undefined;
    case 'softwareUpgrade':
      return {
        text:
          typeof change.packageName === 'string' && change.packageName !== UPGRADE_ALL_PACKAGES
            ? translate('document:sentPackage', { name: change.packageName })
            : translate('document:sentEveryPackage'),
      };
    case 'firewall':
      return typeof change.patch === 'object' && change.patch !== null
        ? { fields: readableOf(change.patch, translate) }
        : undefined;
    default:
      return undefined;
  }
}

const isObject = (item: unknown): item is Record<string, unknown> =>
  typeof item === 'object' && item !== null;

/** One change: when, what, on which gateway and how it ended, why, then each setting before → after. */
export function changeModelOf(change: ChangeSummary, gatewayName: string, format: PartFormat): ChangeModel {
  const { entry } = change;
  const before = redactSecrets(entry.before);
  const after = redactSecrets(entry.after);
  const keys =
    isObject(before) || isObject(after)
      ? [
          ...new Set([
            ...Object.keys(isObject(before) ? before : {}),
            ...Object.keys(isObject(after) ? after : {}),
          ]),
        ]
      : before === undefined && after === undefined
        ? []
        : [''];
  const pick = (side: unknown, key: string) => (key === '' ? side : isObject(side) ? side[key] : undefined);
  // Each setting leaf by leaf ("DoS prevention › Burst limit"), so a nested value reads as fields, not JSON.
  // A fleet change of one value (ping target, APN) names its setting by the change: "Ping target", not "—".
  const { translate } = format;
  const wholeName = entry.kind === 'fleet' ? fleetSettingLabel(entry.name, translate) : '';
  // A software change's keys are package names, shown as the gateway spells them.
  const isSoftware = SOFTWARE_CHANGES.has(entry.name);
  const settings = keys.flatMap((key) => {
    const name =
      key === ''
        ? wholeName
        : (labelOf(entry.response, key, translate) ?? (isSoftware ? key : labelOfField(key, translate)));
    const beforeFields = leafMap(pick(before, key), translate);
    const afterFields = leafMap(pick(after, key), translate);
    return [...new Set([...beforeFields.keys(), ...afterFields.keys()])].map((leaf) => ({
      label: [name, leaf].filter((part) => part !== '').join(' › ') || '—',
      before: beforeFields.get(leaf) ?? { label: '', text: '—' },
      after: afterFields.get(leaf) ?? { label: '', text: '—' },
    }));
  });
  const changed = settings.filter((setting) => setting.before.text !== setting.after.text);
  const backup = (entry.response as { backup?: { description?: unknown } } | undefined)?.backup?.description;
  const sent = entry.kind === 'fleet' ? describeFleetSent(entry.name, entry.request, translate) : undefined;
  return {
    when: format.clock(change.at),
    what: change.what,
    gateway: gatewayName,
    outcome: wordOutcome(change.outcome, translate),
    ...(sent ? { sent } : {}),
    ...(change.reason ? { why: change.reason } : {}),
    ...(change.followed ? { followed: describeFollowed(change.followed, format.clock, translate) } : {}),
    settingHeader: translate(isSoftware ? 'document:columnPackage' : 'document:columnSetting'),
    // Only what changed; when nothing did (no change needed), every setting as it stands.
    rows: changed.length > 0 ? changed : settings,
    checks: checksOf(entry.response, translate),
    ...(typeof backup === 'string' ? { backup } : {}),
  };
}

/** "Commands run": one line per command, repeated reads folded into one ("read 48 times, 10:02–10:04"). */
export function commandRowsOf(entries: AuditEntry[], format: PartFormat): CommandRow[] {
  return foldCommands(entries).map((line) => {
    const { translate } = format;
    // A runbook is named in words alone: its name is the technician's, not an API name.
    const isRunbook = line.kind === 'runbook';
    const title = isRunbook ? undefined : titleOfCommand(line.name, translate);
    const first = format.clock(line.firstAt);
    const last = format.clock(line.lastAt);
    const span: Record<string, string> = first === last ? { time: first } : { from: first, to: last };
    const isRead = line.risk === 'read';
    const folded: MessageKey =
      first === last
        ? isRead
          ? 'document:commandReadAt'
          : 'document:commandRunAt'
        : isRead
          ? 'document:commandReadBetween'
          : 'document:commandRunBetween';
    return {
      when: line.count === 1 ? first : translate(folded, { count: line.count, ...span }),
      ...(title ? { title } : {}),
      name: isRunbook ? translate('document:runbookRun', { name: line.name }) : line.name,
      ...(line.request === undefined ? {} : { request: readableOf(line.request, translate) }),
      outcome: wordAuditOutcome(line.outcome, translate),
      ...(line.error ? { error: line.error } : {}),
    };
  });
}

/** An RF series: how many readings when, and the best value of each figure with the time it was seen. */
export function rfModelOf(series: RfMeasurement, format: PartFormat) {
  const { translate } = format;
  const first = series.samples[0];
  const last = series.samples.at(-1);
  const row = (figure: string, metric: keyof RfBest, unit: string) => {
    const best = series.best[metric];
    return {
      figure,
      best: best
        ? translate('document:rfBestAt', {
            value: `${format.number(best.value)} ${unit}`,
            time: format.clock(best.at),
          })
        : '—',
      last: last ? `${format.number(last[metric])} ${unit}` : '—',
    };
  };
  return {
    summary:
      first && last
        ? translate('document:rfSummaryBetween', {
            count: series.samples.length,
            from: format.clock(first.at),
            to: format.clock(last.at),
          })
        : translate('document:rfSummary', { count: series.samples.length }),
    rows: [
      row(translate('document:rfSignalStrength'), 'signalStrength', 'dBm'),
      row('SINR', 'sinr', 'dB'),
      row('RSRQ', 'rsrq', 'dB'),
      row('Ec/Io', 'ecio', 'dB'),
    ],
  };
}

/** Words for a triage status (`ok`, `fault`, `unknown`). */
const STATUS_KEYS: Readonly<Record<string, MessageKey>> = {
  ok: 'document:statusOk',
  fault: 'document:statusFault',
  unknown: 'document:statusUnknown',
};

/** A triage status (`ok`, `fault`, `unknown`…) as shown; a status the triage does not know, as recorded. */
function wordStatus(value: string, translate: Translator): WordedOutcome {
  return {
    tone: value === 'ok' ? 'ok' : value === 'fault' ? 'failed' : 'unknown',
    words: Object.hasOwn(STATUS_KEYS, value) ? translate(STATUS_KEYS[value]!) : value,
  };
}

/** How a command of a triage ended, in words. */
function commandResult(command: TriageResult['commands'][number], translate: Translator): string {
  switch (command.outcome) {
    case 'timed-out':
      return translate('document:triageTimedOut', { seconds: Math.round(command.timeoutMs / 1000) });
    case 'prompted':
      return translate('document:triagePrompted');
    case 'ok':
      return translate('document:statusOk');
    default:
      return translate('document:triageExit', { code: String(command.exitCode) });
  }
}

/** One gateway's health panel: findings first, then what each part showed and the commands run. */
export function triageModelOf(
  triage: TriageResult,
  gatewayName: string | undefined,
  format: PartFormat,
): TriageModel {
  const { translate } = format;
  const { health } = triage;
  const routesAndDns = describeRoutesAndDns(triage, translate);
  const unknown = translate('document:statusUnknown');
  const part = (label: string, check: TriageCheck) => ({
    label,
    status: wordStatus(check.status, translate),
    seen: triageCheckWords(check, translate),
  });
  return {
    heading: translate('document:triageHeading', {
      name: gatewayName ?? triage.title,
      time: format.time(triage.finishedAt),
    }),
    ...(triage.outcome === 'stopped'
      ? {
          stopped: translate('document:triageStopped', {
            problem: triage.problem
              ? triageSentenceWords(triage.problem, translate)
              : translate('document:triageUnknownReason'),
          }),
        }
      : {}),
    findings: health.findings.map((finding) => ({
      status: wordStatus(finding.status, translate),
      text: triageFindingWords(finding, translate),
    })),
    parts: [
      part(translate('document:partNetwork'), health.network),
      part('WAN', health.wan),
      part(translate('document:partModem'), health.modem),
      part(translate('document:partPacketForwarder'), health.packetForwarder),
      { label: translate('document:partDefaultRoute'), seen: routesAndDns.routes },
      { label: 'DNS', seen: routesAndDns.dns },
      { label: translate('document:partUptime'), seen: health.uptime ?? unknown },
      {
        label: translate('document:partVersions'),
        seen: health.versions.map((version) => `${version.name} ${version.version}`).join(', ') || unknown,
      },
    ],
    interfaces: health.interfaces
      .filter((item) => item.name !== 'lo')
      .map((item) => ({
        name: item.name,
        state: translate(item.isUp ? 'document:interfaceUp' : 'document:interfaceDown'),
        carrier: item.hasCarrier === null ? '—' : translate(item.hasCarrier ? 'document:yes' : 'document:no'),
        addresses: [...item.ipv4, ...item.ipv6].join(', ') || translate('document:none'),
      })),
    ...(health.logErrors.length > 0 ? { logErrors: health.logErrors.join('\n') } : {}),
    commands: triage.commands.map((command) => ({
      command: command.command,
      result: commandResult(command, translate),
    })),
    ...(triage.consoleLeft ? { consoleLeft: triageSentenceWords(triage.consoleLeft, translate) } : {}),
  };
}
