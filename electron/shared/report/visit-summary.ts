import { commandTitle } from '../api/command-titles';
import { isCommandName } from '../api/commands';
import { t, type MessageKey, type Translator } from '../i18n';
import { checksOf, firstReasonWordsOf, resultWordsOf } from './recorded-words';

/**
 * An audit entry as the report and its preview read it: the fields both the audit log (main) and the renderer's
 * view of it (`audit:read`) have. Kinds are `command`, `wizard`, `fleet` and `terminal`; outcomes `ok`, `failed`,
 * `cancelled` and `unknown`.
 */
export interface AuditEntry {
  at: number;
  gatewayId?: string;
  kind: string;
  name: string;
  risk?: string;
  request?: unknown;
  response?: unknown;
  outcome: string;
  error?: string;
  before?: unknown;
  after?: unknown;
  /** Groups the entries of one wizard run, gateway-task run or fleet job. */
  runId?: string;
  /** How long it took (milliseconds). */
  durationMs?: number;
  /**
   * True for a read the app made by itself while it followed a task the technician started (install progress,
   * a restart, the backups list after creating one): not a technician's command. The report tells these reads
   * through the task they served, never as commands of their own.
   */
  automatic?: boolean;
}

/** How a gateway's work ended, worst last: what page one of the report says for it. */
export const VISIT_OUTCOMES = [
  'inspected',
  'unchanged',
  'done',
  'verified',
  'cancelled',
  'rolled-back',
  'unknown',
  'failed',
  'rollback-failed',
] as const;
/** How a gateway's work ended. */
export type VisitOutcome = (typeof VISIT_OUTCOMES)[number];

/** The words the report uses for each outcome, a customer's words rather than the engine's. */
const OUTCOME_KEYS: Record<VisitOutcome, MessageKey> = {
  inspected: 'document:outcomeInspected',
  unchanged: 'document:outcomeUnchanged',
  done: 'document:outcomeDone',
  verified: 'document:outcomeVerified',
  cancelled: 'document:outcomeCancelled',
  'rolled-back': 'document:outcomeRolledBack',
  unknown: 'document:outcomeUnknown',
  failed: 'document:outcomeFailed',
  'rollback-failed': 'document:outcomeRollbackFailed',
};

/** An outcome in the report's words ("changed and verified"), in the language of `translate`. */
export function outcomeWords(outcome: VisitOutcome, translate: Translator = t): string {
  return translate(OUTCOME_KEYS[outcome]);
}

/** One change (or action) made on a gateway during the visit, with how it ended and why. */
export interface ChangeSummary {
  at: number;
  gatewayId?: string;
  /** What was done, in words ("Cellular modem and APN", "Fleet: firewall", "Reboot"). */
  what: string;
  outcome: VisitOutcome;
  /** Why it ended so (the failed check, the error), when it did not simply succeed. */
  reason?: string;
  /** The audit entry it comes from. */
  entry: AuditEntry;
  /** The reads the app made to follow it (automatic entries of its run), when there were any or it restarted. */
  followed?: FollowedReads;
}

/** The reads the app made by itself while following a task, told in one line instead of one per read. */
export interface FollowedReads {
  /** True for a task that restarts the gateway (reboot, restore, software install or upgrade). */
  isRestart: boolean;
  /** How many reads, and the titles of the commands read (in the order first read). */
  reads: number;
  titles: string[];
  /** How many went unanswered (for a restart: while the gateway was away, as planned). */
  unanswered: number;
  /** When the gateway was seen answering again after the restart (the task's end, when it ended well). */
  answeredAt?: number;
}

/** Page one's line for a gateway: its changes and the worst outcome among them (`inspected` when none). */
export interface GatewaySummary {
  gatewayId: string;
  outcome: VisitOutcome;
  changes: ChangeSummary[];
}

/** Wizard names in words. */
const WIZARD_TITLES: Readonly<Record<string, MessageKey>> = {
  connectivity: 'document:wizardConnectivity',
  cellular: 'document:wizardCellular',
  firewall: 'document:wizardFirewall',
};

/** Gateway tasks that only read: running them leaves a gateway "only inspected". */
const INSPECTION_TASKS = new Set([
  'listBackups',
  'readSoftware',
  'readRadioStatistics',
  'spectralScan',
  'readDiagnostics',
  'ping',
]);

/** Task names in words (the rest are shown as recorded). */
const TASK_TITLES: Readonly<Record<string, MessageKey>> = {
  createBackup: 'document:taskCreateBackup',
  restoreBackup: 'document:taskRestoreBackup',
  upgrade: 'document:taskSoftwareUpgrade',
  install: 'document:taskSoftwareInstall',
  upgradeSoftware: 'document:taskSoftwareUpgrade',
  installSoftware: 'document:taskSoftwareInstall',
  resetRadioStatisticsCounters: 'document:taskResetRadioCounters',
  reboot: 'document:taskReboot',
  resetRadioStatistics: 'document:taskResetRadioCounters',
};

/** What the report reads of a wizard's response itself (its words: recorded-words.ts). */
interface WizardResponse {
  outcome?: string;
}

/** The wizard or fleet response recorded with an entry, when it has that shape. */
function responseOf(entry: AuditEntry): WizardResponse {
  const response = entry.response;
  return typeof response === 'object' && response !== null ? (response as WizardResponse) : {};
}

/** Fleet changes in words. */
const FLEET_TITLES: Readonly<Record<string, MessageKey>> = {
  firewall: 'document:fleetFirewall',
  apn: 'document:fleetApn',
  pingTarget: 'document:fleetPingTarget',
  softwareUpgrade: 'document:fleetSoftwareUpgrade',
};

/** The key a table holds for `name`, when it holds one (never a key inherited from Object). */
function keyIn(table: Readonly<Record<string, MessageKey>>, name: string): MessageKey | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

/** What an entry did, in words (a name no table knows is shown as recorded). */
export function describeWork(entry: Pick<AuditEntry, 'kind' | 'name'>, translate: Translator = t): string {
  if (entry.kind === 'fleet') {
    const fleet = keyIn(FLEET_TITLES, entry.name);
    return translate('document:fleetWork', { what: fleet ? translate(fleet) : entry.name });
  }
  const key = keyIn(WIZARD_TITLES, entry.name) ?? keyIn(TASK_TITLES, entry.name);
  return key ? translate(key) : entry.name;
}

/** A gateway command's title in words ("Read PDP profiles"), or undefined for a name that is not a command. */
export function titleOfCommand(name: string, translate: Translator = t): string | undefined {
  return isCommandName(name) ? commandTitle(name, translate) : undefined;
}

/** True for a wizard's read of the gateway's settings (`cellular:read`), listed under "Settings read". */
export function isSettingsRead(entry: Pick<AuditEntry, 'kind' | 'name'>): boolean {
  return entry.kind === 'wizard' && entry.name.endsWith(':read');
}

/** A wizard's read in words: the wizard's title ("Cellular modem and APN"). */
export function describeSettingsRead(
  entry: Pick<AuditEntry, 'kind' | 'name'>,
  translate: Translator = t,
): string {
  return describeWork({ kind: entry.kind, name: entry.name.replace(/:read$/, '') }, translate);
}

/** The first sentence of a wizard's message: the reason ("Verification failed: …") without the rollback story. */
function firstReason(text: string): string {
  const cut = text.search(/\. (The previous settings|Putting the values back)/);
  return (cut === -1 ? text : text.slice(0, cut)).trim();
}

function outcomeOf(entry: AuditEntry, translate: Translator): { outcome: VisitOutcome; reason?: string } {
  // The entry's message in the report's language when it was recorded as data; an older entry's English.
  const error =
    entry.error === undefined ? undefined : (resultWordsOf(entry.response, translate) ?? entry.error);
  if (entry.outcome === 'unknown') return { outcome: 'unknown', reason: error };
  if (entry.outcome === 'cancelled') return { outcome: 'cancelled', reason: error };
  const response = responseOf(entry);
  const failedChecks = checksOf(entry.response, translate).filter((check) => !check.ok);
  const why =
    failedChecks.length > 0
      ? failedChecks
          .map((check) => translate('wizards:checkLine', { name: check.name, detail: check.detail }))
          .join('; ')
      : entry.error
        ? (firstReasonWordsOf(entry.response, translate) ?? firstReason(entry.error))
        : undefined;
  switch (response.outcome) {
    case 'applied':
      return { outcome: 'verified' };
    case 'unchanged':
      return { outcome: 'unchanged' };
    case 'rolled-back':
      return { outcome: 'rolled-back', reason: why };
    case 'rollback-failed':
      return { outcome: 'rollback-failed', reason: error ?? why };
    default:
      if (entry.outcome !== 'ok') return { outcome: 'failed', reason: why };
      // A fleet row is "done" only once the gateway read the new value back (fleet-job.ts): a verified change.
      // A gateway task (reboot, restore…) finished as asked: done.
      return { outcome: entry.kind === 'fleet' ? 'verified' : 'done' };
  }
}

/**
 * The changes and actions of a visit, in time order: each wizard's final entry (not its `:read` or step entries),
 * each fleet row, and each gateway task that changes something (reboot, restore, upgrade…). Reads are left out.
 */
export function listChanges(entries: AuditEntry[], translate: Translator = t): ChangeSummary[] {
  const served = followedReadsOf(entries);
  return entries
    .filter((entry) => {
      if (entry.kind === 'fleet') return true;
      if (entry.kind !== 'wizard' || entry.name.includes(':')) return false;
      return entry.before !== undefined || entry.after !== undefined || !INSPECTION_TASKS.has(entry.name);
    })
    .sort((left, right) => left.at - right.at)
    .map((entry) => {
      const followed = describeFollowedReads(entry, served.get(entry) ?? [], translate);
      return {
        at: entry.at,
        gatewayId: entry.gatewayId,
        what: describeWork(entry, translate),
        ...outcomeOf(entry, translate),
        entry,
        ...(followed ? { followed } : {}),
      };
    });
}

/** Gateway tasks that restart the gateway: the app follows them until it answers again. */
const RESTART_TASKS = new Set(['reboot', 'restoreBackup', 'upgradeSoftware', 'installSoftware']);

/**
 * The automatic reads of each task entry: those of its run (same run id and gateway) made between its start and
 * its end. A task's own entry is written when it ends, so its reads are the entries of its run within its span.
 */
function followedReadsOf(entries: AuditEntry[]): Map<AuditEntry, AuditEntry[]> {
  const tasks = tasksOf(entries);
  const served = new Map<AuditEntry, AuditEntry[]>();
  for (const read of entries) {
    if (!read.automatic || read.kind !== 'command') continue;
    const task = tasks.find((candidate) => isOfTask(candidate, read));
    if (!task) continue;
    served.set(task, [...(served.get(task) ?? []), read]);
  }
  return served;
}

function tasksOf(entries: AuditEntry[]): AuditEntry[] {
  return entries.filter((entry) => entry.kind === 'wizard' && entry.runId !== undefined);
}

/** True when `entry` was written by `task`'s run: same run id and gateway, between its start and its end. */
function isOfTask(task: AuditEntry, entry: AuditEntry): boolean {
  return (
    task.runId === entry.runId &&
    task.gatewayId === entry.gatewayId &&
    entry.at >= task.at &&
    entry.at <= task.at + (task.durationMs ?? 0)
  );
}

/**
 * The command entries a change stands for: the automatic reads that followed a task, and the task's own command
 * (the upgradeSoftware of a software upgrade), which the change's line already tells. Every automatic read no task
 * claims stays a command.
 */
function claimedCommands(entries: AuditEntry[]): Set<AuditEntry> {
  const claimed = new Set([...followedReadsOf(entries).values()].flat());
  const tasks = tasksOf(entries);
  for (const entry of entries) {
    if (entry.kind === 'command' && tasks.some((task) => task.name === entry.name && isOfTask(task, entry)))
      claimed.add(entry);
  }
  return claimed;
}

function describeFollowedReads(
  task: AuditEntry,
  reads: AuditEntry[],
  translate: Translator,
): FollowedReads | undefined {
  const isRestart = RESTART_TASKS.has(task.name) && task.kind === 'wizard';
  if (reads.length === 0 && !isRestart) return undefined;
  return {
    isRestart,
    reads: reads.length,
    titles: [...new Set(reads.map((read) => titleOfCommand(read.name, translate) ?? read.name))],
    unanswered: reads.filter((read) => read.outcome !== 'ok').length,
    // The task ends when the gateway has answered again (restart) or said its install is done.
    ...(isRestart && task.outcome === 'ok' ? { answeredAt: task.at + (task.durationMs ?? 0) } : {}),
  };
}

/**
 * The reads the app made to follow a task, in words: "Followed the restart: 14 reads (Read the last install or
 * upgrade outcome), 3 unanswered while it restarted; the gateway answered again at 15:52." A read that failed
 * while a planned restart was under way is told as unanswered, not as a failure.
 */
export function describeFollowed(
  followed: FollowedReads,
  formatTime: (at: number) => string,
  translate: Translator = t,
): string {
  const titles = followed.titles.join(', ');
  const reads =
    followed.reads === 0
      ? ''
      : followed.unanswered === 0
        ? translate('document:followedReads', { count: followed.reads, titles })
        : translate(
            followed.isRestart
              ? 'document:followedReadsUnansweredRestart'
              : 'document:followedReadsUnanswered',
            { count: followed.reads, titles, unanswered: followed.unanswered },
          );
  const answered =
    followed.answeredAt === undefined
      ? ''
      : translate('document:followedAnsweredAgain', { time: formatTime(followed.answeredAt) });
  const body =
    [reads, answered].filter((part) => part !== '').join('; ') || translate('document:followedNoAnswer');
  return translate(followed.isRestart ? 'document:followedRestart' : 'document:followedTask', { body });
}

/**
 * One summary per gateway, in the order given: its changes and the worst of their outcomes; a gateway with no
 * change was only inspected.
 */
export function summarizeGateways(
  gatewayIds: string[],
  entries: AuditEntry[],
  translate: Translator = t,
): GatewaySummary[] {
  const changes = listChanges(entries, translate);
  return gatewayIds.map((gatewayId) => {
    const own = changes.filter((change) => change.gatewayId === gatewayId);
    const outcome = own.reduce<VisitOutcome>(
      (worst, change) =>
        VISIT_OUTCOMES.indexOf(change.outcome) > VISIT_OUTCOMES.indexOf(worst) ? change.outcome : worst,
      'inspected',
    );
    return { gatewayId, outcome, changes: own };
  });
}

/** A line of "Commands run": one command, or a read repeated `count` times between `firstAt` and `lastAt`. */
export interface CommandLine {
  name: string;
  gatewayId?: string;
  kind: AuditEntry['kind'];
  risk?: AuditEntry['risk'];
  outcome: AuditEntry['outcome'];
  count: number;
  firstAt: number;
  lastAt: number;
  /** The last error of the folded entries, if any failed. */
  error?: string;
  /** The request, for a single (unfolded) entry. */
  request?: unknown;
}

/**
 * The commands of a visit as the report lists them (its `command` and `terminal` entries): reads (risk `read`) of
 * the same command with the same outcome fold into one line at the place of the first ("read 48 times,
 * 10:02–10:04"), so polling during a wizard takes one line; every change, disruptive command and terminal entry
 * keeps a line of its own. The reads the app made to follow a task (ChangeSummary.followed) and the task's own
 * command are not listed: the task's change tells them.
 */
export function foldCommands(entries: AuditEntry[]): CommandLine[] {
  const lines: CommandLine[] = [];
  const folded = new Map<string, CommandLine>();
  const claimed = claimedCommands(entries);
  const commands = entries.filter(
    (entry) =>
      (entry.kind === 'command' || entry.kind === 'terminal' || entry.kind === 'runbook') &&
      !claimed.has(entry),
  );
  for (const entry of commands.sort((left, right) => left.at - right.at)) {
    const line: CommandLine = {
      name: entry.name,
      ...(entry.gatewayId ? { gatewayId: entry.gatewayId } : {}),
      kind: entry.kind,
      risk: entry.risk,
      outcome: entry.outcome,
      count: 1,
      firstAt: entry.at,
      lastAt: entry.at,
      ...(entry.error ? { error: entry.error } : {}),
      ...(entry.request === undefined ? {} : { request: entry.request }),
    };
    if (entry.kind !== 'command' || entry.risk !== 'read') {
      lines.push(line);
      continue;
    }
    const key = `${entry.gatewayId ?? ''}\u0000${entry.name}\u0000${entry.outcome}`;
    const existing = folded.get(key);
    if (!existing) {
      folded.set(key, line);
      lines.push(line);
      continue;
    }
    existing.count += 1;
    existing.lastAt = entry.at;
    if (entry.error) existing.error = entry.error;
    // A request shown for one read would be wrong for the others.
    delete existing.request;
  }
  return lines;
}
