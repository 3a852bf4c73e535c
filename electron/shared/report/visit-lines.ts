import { format } from '../format';
import { t, type MessageKey, type Translator } from '../i18n';
import { isSameMac } from '../mac';
import { resultWordsOf } from './recorded-words';
import type { TriageSentence } from '../terminal/triage-schemas';
import { triageSentenceWords } from '../terminal/triage-words';
import {
  describeFollowed,
  describeSettingsRead,
  foldCommands,
  isSettingsRead,
  listChanges,
  outcomeWords,
  titleOfCommand,
  type AuditEntry,
} from './visit-summary';

/**
 * One line of the report's preview: a change with how it ended, a wizard's read of the settings, a command
 * (repeated reads folded into one line, as in "Commands run"), a terminal session or a serial triage.
 */
export interface VisitLine {
  /** When it happened; for folded reads, the first of them. */
  at: number;
  /** For folded reads, the last of them (else equal to `at`). */
  lastAt: number;
  /** How many entries the line stands for (reads of one command folded together). */
  count: number;
  gatewayId?: string;
  /** What was done, in the report's words. */
  what: string;
  /** The command's API name, beside its title (commands only). */
  apiName?: string;
  /** How it ended, in the report's words ("changed and verified", "ok", "failed"). */
  outcome: string;
  /** Why, when it did not simply succeed. */
  reason?: string;
  /** More about it, in words: for a change, the reads the app made to follow it (describeFollowed). */
  detail?: string;
}

/** A terminal session the report lists, and the gateway it was with when known (already matched: matchGateway). */
export interface VisitTerminalLog {
  label: string;
  gatewayId?: string;
  /** When the session was opened; a log without it is listed by the report but has no place in time. */
  openedAt?: number;
}

/** A serial console's "Collect diagnostics" the report shows. */
export interface VisitTriage {
  title: string;
  gatewayId?: string;
  finishedAt: number;
  outcome: 'complete' | 'stopped';
  /** Why it stopped early: a message kept as data, or an older triage's sentence. */
  problem?: TriageSentence;
}

/** What a visit holds besides its audit entries, for the preview to list what the report will show. */
export interface VisitExtras {
  terminalLogs?: VisitTerminalLog[];
  triages?: VisitTriage[];
  /** How the lines write a time (default: the app's formatter, date and time). */
  formatTime?: (at: number) => string;
  /** The language of the lines' words (default: the app's). */
  translate?: Translator;
}

/** An audit outcome (`ok`, `failed`, `cancelled`, `unknown`) in words; another value as recorded. */
const AUDIT_OUTCOME_KEYS: Readonly<Record<string, MessageKey>> = {
  ok: 'document:auditOk',
  failed: 'document:auditFailed',
  cancelled: 'document:auditCancelled',
  unknown: 'document:auditUnknown',
};

/** An audit entry's outcome in words ("ok", "failed"…); a value the log does not know is shown as recorded. */
export function auditOutcomeWords(outcome: string, translate: Translator = t): string {
  return Object.hasOwn(AUDIT_OUTCOME_KEYS, outcome) ? translate(AUDIT_OUTCOME_KEYS[outcome]!) : outcome;
}

/**
 * The gateway a terminal session or triage was tied to, as an id of the visit's gateways: the text the technician
 * gave (a serial console's Gateway field is free text) is matched against each gateway's id, name (letter case and
 * spaces aside) and MAC. Text that matches none is returned as given; undefined stays undefined.
 */
export function matchGateway(
  named: string | undefined,
  gateways: ReadonlyArray<{ id: string; name?: string; mac?: string }>,
): string | undefined {
  const text = named?.trim();
  if (!text) return undefined;
  const folded = text.toLowerCase().replace(/\s+/g, ' ');
  const found =
    gateways.find((gateway) => gateway.id === text) ??
    gateways.find((gateway) => gateway.name?.trim().toLowerCase().replace(/\s+/g, ' ') === folded) ??
    gateways.find((gateway) => gateway.mac !== undefined && isSameMac(gateway.mac, text));
  return found?.id ?? text;
}

/** A triage's outcome in words. */
export function describeTriageOutcome(
  triage: Pick<VisitTriage, 'outcome'>,
  translate: Translator = t,
): string {
  return translate(
    triage.outcome === 'complete' ? 'document:triageCollected' : 'document:triageStoppedEarly',
  );
}

/**
 * What the report will hold, as one list in time order: each change with its outcome (listChanges) and the reads
 * the app made to follow it, each wizard's read of the settings, each command and terminal entry, repeated reads
 * folded (foldCommands), and the terminal sessions and serial triages of `extras`. A wizard's own steps (backing
 * up, applying…) are not listed: the report tells them through the change.
 */
export function listVisitLines(entries: AuditEntry[], extras: VisitExtras = {}): VisitLine[] {
  const formatTime = extras.formatTime ?? ((at: number) => format.dateTime(at));
  const translate = extras.translate ?? t;
  const changes: VisitLine[] = listChanges(entries, translate).map((change) => ({
    at: change.at,
    lastAt: change.at,
    count: 1,
    ...(change.gatewayId ? { gatewayId: change.gatewayId } : {}),
    what: change.what,
    outcome: outcomeWords(change.outcome, translate),
    ...(change.reason ? { reason: change.reason } : {}),
    ...(change.followed ? { detail: describeFollowed(change.followed, formatTime, translate) } : {}),
  }));
  const reads: VisitLine[] = entries.filter(isSettingsRead).map((entry) => ({
    at: entry.at,
    lastAt: entry.at,
    count: 1,
    ...(entry.gatewayId ? { gatewayId: entry.gatewayId } : {}),
    what: translate('document:timelineSettingsRead', { what: describeSettingsRead(entry, translate) }),
    outcome: auditOutcomeWords(entry.outcome, translate),
    // The error in the report's language when the read recorded it as data; an older read's sentence as kept.
    ...(entry.error ? { reason: resultWordsOf(entry.response, translate) ?? entry.error } : {}),
  }));
  const commands: VisitLine[] = foldCommands(entries).map((line) => {
    const title = titleOfCommand(line.name, translate);
    return {
      at: line.firstAt,
      lastAt: line.lastAt,
      count: line.count,
      ...(line.gatewayId ? { gatewayId: line.gatewayId } : {}),
      what: title ?? line.name,
      ...(title ? { apiName: line.name } : {}),
      outcome: auditOutcomeWords(line.outcome, translate),
      ...(line.error ? { reason: line.error } : {}),
    };
  });
  const sessions: VisitLine[] = (extras.terminalLogs ?? []).flatMap((log) =>
    log.openedAt === undefined
      ? []
      : [
          {
            at: log.openedAt,
            lastAt: log.openedAt,
            count: 1,
            ...(log.gatewayId ? { gatewayId: log.gatewayId } : {}),
            what: translate('document:timelineTerminalSession', { label: log.label }),
            outcome: translate('document:timelineLogKept'),
          },
        ],
  );
  const triages: VisitLine[] = (extras.triages ?? []).map((triage) => ({
    at: triage.finishedAt,
    lastAt: triage.finishedAt,
    count: 1,
    ...(triage.gatewayId ? { gatewayId: triage.gatewayId } : {}),
    what: translate('document:serialTriageOf', { name: triage.title }),
    outcome: describeTriageOutcome(triage, translate),
    ...(triage.problem ? { reason: triageSentenceWords(triage.problem, translate) } : {}),
  }));
  // A stable sort: lines of the same moment keep the order above (the change before the commands it sent).
  return [...changes, ...reads, ...commands, ...sessions, ...triages].sort(
    (left, right) => left.at - right.at,
  );
}
