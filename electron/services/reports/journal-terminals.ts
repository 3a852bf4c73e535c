import type { TriageResult } from '../../shared/terminal/triage-schemas';
import type { GatewayIdentity, VisitEntry } from '../../shared/visit/journal-entry';

/** A journal line as the report reads it: when it was recorded and its entry. */
export interface ReportJournalLine {
  at: number;
  entry: { kind: string };
}

/** The terminal work a visit journal records, each item with the gateway its entry names. */
export interface JournalTerminalWork {
  triages: Array<{ triage: TriageResult; gateway: GatewayIdentity | undefined }>;
  sessions: Array<{
    title: string;
    /** The log's path as recorded, or the name its attachment keeps it under in a bundle (`logs/<name>`). */
    logFile: string;
    transport: 'ssh' | 'serial';
    gateway: GatewayIdentity | undefined;
    /** When the session's opening was recorded. */
    openedAt: number;
  }>;
}

/** Text folded for comparing what was typed: letter case and spacing aside. */
function fold(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/g, ' ');
}

/**
 * The serial triages and terminal sessions of a visit journal, oldest first, each naming its gateway as recorded —
 * or, for one recorded by what was typed only, as the technician later picked it (`gateway-identified`, the
 * latest choice for that text).
 */
export function readTerminalWork(lines: readonly ReportJournalLine[]): JournalTerminalWork {
  const entries = lines.map((line) => line.entry as VisitEntry);
  const chosen = new Map<string, GatewayIdentity>();
  for (const entry of entries)
    if (entry.kind === 'gateway-identified') chosen.set(fold(entry.typed), entry.gateway);
  const identify = (gateway: GatewayIdentity | undefined): GatewayIdentity | undefined => {
    if (!gateway || gateway.gatewayId) return gateway;
    const text = gateway.typed ?? gateway.name ?? gateway.mac;
    const picked = text === undefined ? undefined : chosen.get(fold(text));
    return picked ? { ...picked, ...(gateway.typed ? { typed: gateway.typed } : {}) } : gateway;
  };
  // The name a session's log is kept under in a bundle: the one its latest attachment chose (`2-<name>` when two
  // sessions' logs share a file name), else the log's own file name.
  const attachedAs = new Map<string, string>();
  for (const entry of entries)
    if (entry.kind === 'log-attached' && entry.sessionId) attachedAs.set(entry.sessionId, entry.logFile);
  const work: JournalTerminalWork = { triages: [], sessions: [] };
  for (const [index, entry] of entries.entries()) {
    if (entry.kind === 'triage')
      work.triages.push({ triage: entry.result, gateway: identify(entry.gateway) });
    if (entry.kind === 'terminal-opened' && entry.logFile)
      work.sessions.push({
        title: entry.title,
        logFile: attachedAs.get(entry.sessionId) ?? entry.logFile,
        transport: entry.transport,
        gateway: identify(entry.gateway),
        openedAt: lines[index]!.at,
      });
  }
  return work;
}
