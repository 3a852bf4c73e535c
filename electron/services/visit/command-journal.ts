import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import type { GatewayIdentity, VisitEntry } from '../../shared/visit/journal-entry';
import {
  sanitizeEntry,
  SENT_WITHOUT_OUTCOME,
  type AuditEntry,
  type AuditEntryInput,
  type AuditLog,
} from '../audit';
import type { VisitRecorder, Visits } from './visits';

/** An entry as the command path records it: an audit entry, with the gateway's name when the caller knows it. */
export type CommandRecord = AuditEntryInput & { profileId: string; gatewayName?: string };

type WizardOutcome = Extract<VisitEntry, { kind: 'wizard-outcome' }>['outcome'];

/** A wizard run's result (WizardOutcomeSchema) as the journal words it. */
const WIZARD_OUTCOMES: Record<string, WizardOutcome> = {
  applied: 'changed',
  unchanged: 'no-change',
  'rolled-back': 'rolled-back',
  'rollback-failed': 'rollback-failed',
  failed: 'failed',
  cancelled: 'cancelled',
};

const MAX_CHANGE_TEXT = 1_000;

/** What a command's entry names as its gateway when the command named none (a command of the whole account). */
export const UNNAMED_GATEWAY = 'gateway not named';

function identityOf(entry: AuditEntry, gatewayName: string | undefined): GatewayIdentity {
  return {
    ...(entry.gatewayId === undefined ? { typed: UNNAMED_GATEWAY } : { gatewayId: entry.gatewayId }),
    ...(gatewayName === undefined || gatewayName === '' ? {} : { name: gatewayName }),
  };
}

function outcomeOf(entry: AuditEntry): 'ok' | 'failed' | 'cancelled' | 'unknown' {
  return entry.outcome === 'sent' ? 'unknown' : entry.outcome;
}

function commandSent(entry: AuditEntry, gateway: GatewayIdentity, commandId: string): VisitEntry {
  return {
    kind: 'command-sent',
    commandId,
    gateway,
    command: entry.name,
    ...(entry.risk === undefined ? {} : { risk: entry.risk }),
    ...(entry.request === undefined ? {} : { request: entry.request }),
    ...(entry.automatic === true ? { automatic: true } : {}),
    ...(entry.runId === undefined ? {} : { runId: entry.runId }),
  };
}

function commandOutcome(entry: AuditEntry, commandId: string): VisitEntry {
  return {
    kind: 'command-outcome',
    commandId,
    outcome: outcomeOf(entry),
    ...(entry.response === undefined ? {} : { response: entry.response }),
    ...(entry.error === undefined ? {} : { error: entry.error }),
    durationMs: entry.durationMs,
  };
}

/** A wizard's summary entry (AuditedGateway.audit): a step, the run's result, or a gateway task's end. */
function wizardEntry(entry: AuditEntry, gateway: GatewayIdentity): VisitEntry {
  const runId = entry.runId ?? randomUUID();
  const [wizard = entry.name, step] = entry.name.split(':');
  const values = {
    ...(entry.before === undefined ? {} : { before: entry.before }),
    ...(entry.after === undefined ? {} : { after: entry.after }),
  };
  if (step !== undefined && entry.outcome === 'ok')
    return { kind: 'wizard-step', runId, wizard, gateway, step, ...values };
  const result = (entry.response as { outcome?: unknown } | undefined)?.outcome;
  const outcome: WizardOutcome =
    typeof result === 'string' && result in WIZARD_OUTCOMES
      ? (WIZARD_OUTCOMES[result] as WizardOutcome)
      : entry.outcome === 'ok'
        ? 'changed'
        : entry.outcome === 'cancelled' || entry.outcome === 'failed'
          ? entry.outcome
          : 'unknown';
  const message = (entry.response as { message?: unknown } | undefined)?.message;
  const reason = entry.error ?? (typeof message === 'string' ? message : undefined);
  return {
    kind: 'wizard-outcome',
    runId,
    wizard: step === undefined ? wizard : entry.name,
    gateway,
    outcome,
    ...values,
    ...(reason === undefined ? {} : { reason }),
    ...(entry.response === undefined ? {} : { response: entry.response }),
    durationMs: entry.durationMs,
  };
}

function fleetRow(entry: AuditEntry, gateway: GatewayIdentity): VisitEntry {
  const change = entry.request === undefined ? entry.name : `${entry.name} ${JSON.stringify(entry.request)}`;
  return {
    kind: 'fleet-row',
    jobId: entry.runId ?? randomUUID(),
    gateway,
    change: change.slice(0, MAX_CHANGE_TEXT),
    outcome: outcomeOf(entry),
    ...(entry.before === undefined ? {} : { before: entry.before }),
    ...(entry.after === undefined ? {} : { after: entry.after }),
    ...(entry.error === undefined ? {} : { error: entry.error }),
  };
}

/**
 * The journal entries one audit entry of the command path stands for. A change's `sent` (its `sendId` becomes the
 * journal's `commandId`) is a `command-sent`; its outcome a `command-outcome` under the same id (and, for a fleet
 * job, the gateway's `fleet-row`). A read, recorded once answered, is both at once. A wizard's own entries are its
 * steps (`wizard-step`) and its end (`wizard-outcome`, before → after); a gateway task's end is a `wizard-outcome`.
 */
export function journalEntriesOf(entry: AuditEntry, gatewayName?: string): VisitEntry[] {
  const gateway = identityOf(entry, gatewayName);
  if (entry.kind === 'wizard') return [wizardEntry(entry, gateway)];
  if (entry.kind === 'terminal') return [];
  if (entry.outcome === 'sent') return [commandSent(entry, gateway, entry.sendId ?? randomUUID())];
  const row = entry.kind === 'fleet' ? [fleetRow(entry, gateway)] : [];
  if (entry.sendId !== undefined) return [commandOutcome(entry, entry.sendId), ...row];
  if (entry.kind === 'fleet') return row;
  const commandId = randomUUID();
  return [commandSent(entry, gateway, commandId), commandOutcome(entry, commandId)];
}

/**
 * The visit journal as the command path's second recorder (CommandServiceOptions.journal): takes the entries the
 * audit log takes, redacted the same way, and appends what they stand for (journalEntriesOf) to the open visit.
 * Resolves once they are on the disk; rejects when the journal refuses (a full or failing disk), and
 * the command service then sends nothing.
 */
export class VisitCommandJournal {
  private readonly now: () => number;

  constructor(
    private readonly recorder: VisitRecorder,
    clock: Pick<Clock, 'now'> = SYSTEM_CLOCK,
  ) {
    this.now = () => clock.now();
  }

  /** Appends what `input` stands for; resolves with the redacted audit entry. */
  async append(input: CommandRecord): Promise<AuditEntry> {
    const { gatewayName, ...rest } = input;
    const entry = sanitizeEntry({ ...rest, at: rest.at ?? this.now() });
    for (const visitEntry of journalEntriesOf(entry, gatewayName)) await this.recorder.append(visitEntry);
    return entry;
  }
}

/**
 * At start-up: each change of the audit logs that was sent and has no outcome (SENT_WITHOUT_OUTCOME) is recorded
 * in the open visit's journal as `unknown` — re-read the gateway — once: a change whose outcome the journal
 * already holds is left alone, so the next start adds nothing. Changes sent before the visit began, and not
 * recorded in it, belong to no visit and are left out. With no visit open nothing is written. Resolves with the
 * number of changes recorded.
 */
export async function journalUnsettledSends(
  dataDir: string,
  audit: Pick<AuditLog, 'read'>,
  visits: Pick<Visits, 'current' | 'entries' | 'append'>,
): Promise<number> {
  const open = visits.current();
  if (!open) return 0;
  const sent = new Set<string>();
  const settled = new Set<string>();
  for (const { entry } of visits.entries(open.id)) {
    const commandId = (entry as { commandId?: unknown }).commandId;
    if (typeof commandId !== 'string') continue;
    if (entry.kind === 'command-sent') sent.add(commandId);
    if (entry.kind === 'command-outcome') settled.add(commandId);
  }
  const names = await readdir(join(dataDir, 'audit')).catch(() => [] as string[]);
  const journal = new VisitCommandJournal(visits);
  let recorded = 0;
  for (const name of names.filter((file) => file.endsWith('.jsonl')).sort()) {
    const entries = await audit.read({ profileId: name.slice(0, -'.jsonl'.length) }).catch(() => []);
    for (const entry of entries) {
      const sendId = entry.sendId;
      if (entry.outcome !== 'unknown' || entry.error !== SENT_WITHOUT_OUTCOME || sendId === undefined)
        continue;
      if (settled.has(sendId) || (!sent.has(sendId) && entry.at < open.arrivedAt)) continue;
      if (!sent.has(sendId)) await journal.append({ ...entry, outcome: 'sent', durationMs: 0 });
      await journal.append(entry);
      settled.add(sendId);
      recorded += 1;
    }
  }
  return recorded;
}
