import type { AuditEntry } from '../audit';

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
  upgradeSoftware: 'Software upgrade',
  installSoftware: 'Software install',
  resetRadioStatisticsCounters: 'Reset radio counters',
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

/** Fleet change kinds in words (the rest are shown as recorded). */
const FLEET_TITLES: Record<string, string> = {
  softwareUpgrade: 'software upgrade',
  pingTarget: 'ping target',
  apn: 'APN',
};

/** What an entry did, in words. */
export function describeWork(entry: AuditEntry): string {
  if (entry.kind === 'fleet') return `Fleet: ${FLEET_TITLES[entry.name] ?? entry.name}`;
  return WIZARD_TITLES[entry.name] ?? TASK_TITLES[entry.name] ?? entry.name;
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
