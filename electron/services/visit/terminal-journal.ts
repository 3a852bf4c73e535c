import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { TriageResult } from '../../shared/terminal/triage-schemas';
import type { GatewayIdentity } from '../../shared/visit/journal-entry';
import type { GatewayHint } from './gateway-identity';
import { attachLogs, sessionLogsOf, type LogVisits } from './log-attachments';
import type { Visits, VisitRecorder } from './visits';

/**
 * What the terminals record in the open visit as it happens (TerminalManager's `journal`). Each call resolves once
 * the entry is on the disk and rejects when it cannot be recorded (a full disk, a read-only journal): the caller
 * then does not report the action done.
 */
export interface TerminalJournal {
  /** A terminal session opened (SSH or serial), with its log file and the gateway it names. */
  opened(session: {
    sessionId: string;
    transport: 'ssh' | 'serial';
    title: string;
    logFile?: string | undefined;
    gateway: GatewayHint;
  }): Promise<void>;
  /**
   * A terminal session closed, with its log file (hashed as it is now) and why, when not at the user's asking; the
   * log, now final, is attached to the visit that recorded the session's opening (attachLogs).
   */
  closed(session: {
    sessionId: string;
    logFile?: string | undefined;
    reason?: string | undefined;
  }): Promise<void>;
  /** A serial triage finished: its parsed health result, faults named. */
  triaged(result: TriageResult, gateway: GatewayHint): Promise<void>;
}

/** The SHA-256 of a file read in chunks (a session log may be large), or undefined when it cannot be read. */
async function hashFile(path: string): Promise<string | undefined> {
  const hash = createHash('sha256');
  try {
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  } catch {
    return undefined;
  }
  return hash.digest('hex');
}

/**
 * The TerminalJournal over the visits: every entry names its gateway as `resolve` finds it when it is recorded
 * (createGatewayResolver: the server, else the site pack, else what was typed). With `visits`, a session's log is
 * attached when it closes, if the open visit recorded the session's opening (a session of a visit closed since had
 * its log attached when that visit closed).
 */
export function createTerminalJournal(dependencies: {
  recorder: VisitRecorder;
  resolve(hint: GatewayHint): Promise<GatewayIdentity | undefined>;
  visits?: LogVisits & Pick<Visits, 'current'>;
}): TerminalJournal {
  const { recorder, resolve, visits } = dependencies;
  return {
    async opened({ sessionId, transport, title, logFile, gateway }) {
      const identity = await resolve(gateway);
      await recorder.append({
        kind: 'terminal-opened',
        sessionId,
        transport,
        title,
        ...(identity ? { gateway: identity } : {}),
        ...(logFile ? { logFile } : {}),
      });
    },
    async closed({ sessionId, logFile, reason }) {
      const logSha256 = logFile ? await hashFile(logFile) : undefined;
      await recorder.append({
        kind: 'terminal-closed',
        sessionId,
        ...(logFile ? { logFile } : {}),
        ...(logSha256 ? { logSha256 } : {}),
        ...(reason ? { reason } : {}),
      });
      const open = visits?.current();
      if (!visits || !open || !logFile || !logSha256) return;
      await attachLogs(
        visits,
        sessionLogsOf(visits.entries(open.id), [{ path: logFile, id: sessionId }]),
        resolve,
      );
    },
    async triaged(result, gateway) {
      const identity = await resolve(gateway);
      await recorder.append({ kind: 'triage', ...(identity ? { gateway: identity } : {}), result });
    },
  };
}
