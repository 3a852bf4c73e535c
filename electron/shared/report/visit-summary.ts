import { COMMAND_TITLES } from '../api/command-titles';
import type { CommandName } from '../api/commands';

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
export const OUTCOME_WORDS: Record<VisitOutcome, string> = {
  inspected: 'only inspected',
  unchanged: 'no change needed',
  done: 'done',
  verified: 'changed and verified',
  cancelled: 'cancelled',
  'rolled-back': 'rolled back',
  unknown: 'unknown',
  failed: 'failed',
  'rollback-failed': 'failed, previous settings NOT restored',
};

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
}

/** Page one's line for a gateway: its changes and the worst outcome among them (`inspected` when none). */
export interface GatewaySummary {
  gatewayId: string;
  outcome: VisitOutcome;
  changes: ChangeSummary[];
}

/** Wizard names in words. */
const WIZARD_TITLES: Record<string, string> = {
  connectivity: 'WAN connectivity',
  cellular: 'Cellular modem and APN',
  firewall: 'Firewall',
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
const TASK_TITLES: Record<string, string> = {
  createBackup: 'Create a backup',
  restoreBackup: 'Restore a backup',
  upgrade: 'Software upgrade',
  install: 'Software install',
  reboot: 'Reboot',
  resetRadioStatistics: 'Reset radio counters',
};

interface WizardResponse {
  outcome?: string;
  message?: string;
  checks?: Array<{ name: string; ok: boolean; detail: string }>;
  labels?: Record<string, string>;
}

/** The wizard or fleet response recorded with an entry, when it has that shape. */
export function responseOf(entry: AuditEntry): WizardResponse {
  const response = entry.response;
  return typeof response === 'object' && response !== null ? (response as WizardResponse) : {};
}

/** Fleet changes in words. */
const FLEET_TITLES: Record<string, string> = {
  firewall: 'firewall',
  apn: 'APN',
  pingTarget: 'ping target',
  softwareUpgrade: 'software upgrade',
};

/** What an entry did, in words. */
export function describeWork(entry: Pick<AuditEntry, 'kind' | 'name'>): string {
  if (entry.kind === 'fleet') return `Fleet: ${FLEET_TITLES[entry.name] ?? entry.name}`;
  return WIZARD_TITLES[entry.name] ?? TASK_TITLES[entry.name] ?? entry.name;
}

/** A gateway command's title in words ("Read PDP profiles"), or undefined for a name that is not a command. */
export function titleOfCommand(name: string): string | undefined {
  return Object.hasOwn(COMMAND_TITLES, name) ? COMMAND_TITLES[name as CommandName] : undefined;
}

/** True for a wizard's read of the gateway's settings (`cellular:read`), listed under "Settings read". */
export function isSettingsRead(entry: Pick<AuditEntry, 'kind' | 'name'>): boolean {
  return entry.kind === 'wizard' && entry.name.endsWith(':read');
}

/** A wizard's read in words: the wizard's title ("Cellular modem and APN"). */
export function describeSettingsRead(entry: Pick<AuditEntry, 'kind' | 'name'>): string {
  return describeWork({ kind: entry.kind, name: entry.name.replace(/:read$/, '') });
}

/** The first sentence of a wizard's message: the reason ("Verification failed: …") without the rollback story. */
function firstReason(text: string): string {
  const cut = text.search(/\. (The previous settings|Putting the values back)/);
  return (cut === -1 ? text : text.slice(0, cut)).trim();
}

function outcomeOf(entry: AuditEntry): { outcome: VisitOutcome; reason?: string } {
  if (entry.outcome === 'unknown') return { outcome: 'unknown', reason: entry.error };
  if (entry.outcome === 'cancelled') return { outcome: 'cancelled', reason: entry.error };
  const response = responseOf(entry);
  const failedChecks = (response.checks ?? []).filter((check) => !check.ok);
  const why =
    failedChecks.length > 0
      ? failedChecks.map((check) => `${check.name}: ${check.detail}`).join('; ')
      : entry.error
        ? firstReason(entry.error)
        : undefined;
  switch (response.outcome) {
    case 'applied':
      return { outcome: 'verified' };
    case 'unchanged':
      return { outcome: 'unchanged' };
    case 'rolled-back':
      return { outcome: 'rolled-back', reason: why };
    case 'rollback-failed':
      return { outcome: 'rollback-failed', reason: entry.error ?? why };
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
export function listChanges(entries: AuditEntry[]): ChangeSummary[] {
  return entries
    .filter((entry) => {
      if (entry.kind === 'fleet') return true;
      if (entry.kind !== 'wizard' || entry.name.includes(':')) return false;
      return entry.before !== undefined || entry.after !== undefined || !INSPECTION_TASKS.has(entry.name);
    })
    .sort((left, right) => left.at - right.at)
    .map((entry) => ({
      at: entry.at,
      gatewayId: entry.gatewayId,
      what: describeWork(entry),
      ...outcomeOf(entry),
      entry,
    }));
}

/**
 * One summary per gateway, in the order given: its changes and the worst of their outcomes; a gateway with no
 * change was only inspected.
 */
export function summarizeGateways(gatewayIds: string[], entries: AuditEntry[]): GatewaySummary[] {
  const changes = listChanges(entries);
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
 * The commands of a visit as the report lists them: reads (risk `read`) of the same command with the same outcome
 * fold into one line at the place of the first ("read 48 times, 10:02–10:04"), so polling during a wizard takes
 * one line; every change, disruptive command and terminal entry keeps a line of its own.
 */
export function foldCommands(entries: AuditEntry[]): CommandLine[] {
  const lines: CommandLine[] = [];
  const folded = new Map<string, CommandLine>();
  for (const entry of [...entries].sort((left, right) => left.at - right.at)) {
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

/**
 * One line of the report's preview: a change with how it ended, a wizard's read of the settings, or a command
 * (repeated reads folded into one line, as in "Commands run").
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
}

/**
 * What the report will hold, as one list in time order: each change with its outcome (listChanges), each
 * wizard's read of the settings, and each command and terminal entry, repeated reads folded (foldCommands). A
 * wizard's own steps (backing up, applying…) are not listed: the report tells them through the change.
 */
export function listVisitLines(entries: AuditEntry[]): VisitLine[] {
  const changes: VisitLine[] = listChanges(entries).map((change) => ({
    at: change.at,
    lastAt: change.at,
    count: 1,
    ...(change.gatewayId ? { gatewayId: change.gatewayId } : {}),
    what: change.what,
    outcome: OUTCOME_WORDS[change.outcome],
    ...(change.reason ? { reason: change.reason } : {}),
  }));
  const reads: VisitLine[] = entries.filter(isSettingsRead).map((entry) => ({
    at: entry.at,
    lastAt: entry.at,
    count: 1,
    ...(entry.gatewayId ? { gatewayId: entry.gatewayId } : {}),
    what: `Settings read: ${describeSettingsRead(entry)}`,
    outcome: entry.outcome,
    ...(entry.error ? { reason: entry.error } : {}),
  }));
  const commands: VisitLine[] = foldCommands(
    entries.filter((entry) => entry.kind === 'command' || entry.kind === 'terminal'),
  ).map((line) => {
    const title = titleOfCommand(line.name);
    return {
      at: line.firstAt,
      lastAt: line.lastAt,
      count: line.count,
      ...(line.gatewayId ? { gatewayId: line.gatewayId } : {}),
      what: title ?? line.name,
      ...(title ? { apiName: line.name } : {}),
      outcome: line.outcome,
      ...(line.error ? { reason: line.error } : {}),
    };
  });
  // A stable sort: lines of the same moment keep the order above (the change before the commands it sent).
  return [...changes, ...reads, ...commands].sort((left, right) => left.at - right.at);
}
