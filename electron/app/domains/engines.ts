import type { AuditLog } from '../../services/audit';
import type { CommandJournal } from '../../services/commands';
import type { GatewayCommander } from '../../services/commissioning';
import type { PdfPrinter } from '../../services/reports';
import { IpcError } from '../../shared/ipc/result';
import { mapEngineError } from '../error-mapping';
import type { SignedInSession } from './context';

/** What the composition root hands the commissioning domains: where reports go, how they become PDF, time limits. */
export interface CommissioningOptions {
  /** Folder the site reports are written to (e.g. `<dataDir>/reports`). */
  reportsDir: string;
  /** Electron's printToPDF in the app, headless Chromium in the browser host; none: HTML only. */
  printer?: PdfPrinter;
  /** Time limits of the engines (the e2e tests shorten them). */
  timing?: EngineTiming;
}

/** Time limits of the wizards, gateway tasks and fleet jobs (defaults in the engines). */
export interface EngineTiming {
  commandTimeoutMs?: number;
  verifyTimeoutMs?: number;
  gatewayReturnTimeoutMs?: number;
  pollIntervalMs?: number;
  waitInitialDelayMs?: number;
  waitMaxDelayMs?: number;
  /** Attempts per gateway in a fleet job (default FLEET_MAX_ATTEMPTS). */
  fleetMaxAttempts?: number;
}

/** What the engines of the wizards, gateway tasks and fleet jobs run with. */
export interface EngineDependencies {
  sessions: SignedInSession;
  /**
   * The signed-in session's wire of gateway commands. The engines send through it only via their
   * CommandService (audited-gateway.ts, fleet-job.ts, rf-meter.ts), which bounds, cancels and records each call.
   */
  gatewayTransport: GatewayCommander;
  audit: AuditLog;
  /** The visit journal the engines record into beside the audit log (none: not recorded). */
  journal?: CommandJournal;
  /** The engines' time limits (the e2e tests shorten them); none: the engines' defaults. */
  timing?: EngineTiming;
}

/** Who is signed in, and the session: refused (UNAUTHENTICATED) when nobody is. */
export function requireSignedIn(sessions: SignedInSession) {
  const session = sessions.requireSession();
  const summary = sessions.summary();
  if (!summary) throw new IpcError('UNAUTHENTICATED', 'Sign in first.');
  return { session, profileId: summary.profileId, user: summary.username };
}

/** The options every engine run takes: the transport, the signed-in caller, the records and the time limits. */
export function engineOptions(dependencies: EngineDependencies) {
  const { sessions, audit, journal, timing } = dependencies;
  const { profileId, user } = requireSignedIn(sessions);
  const { fleetMaxAttempts: _fleetMaxAttempts, ...limits } = timing ?? {};
  return { commander: dependencies.gatewayTransport, profileId, user, audit, journal, ...limits };
}

/** Runs a handler's work, answering an engine's failure as an IPC error a technician can act on. */
export async function mapped<Value>(action: () => Promise<Value> | Value): Promise<Value> {
  try {
    return await action();
  } catch (error) {
    throw mapEngineError(error);
  }
}

/** Forgets the oldest entries of a map beyond `limit` (insertion order), skipping those `isBusy` keeps. */
export function forgetOldest<Key, Value>(
  map: Map<Key, Value>,
  limit: number,
  isBusy: (value: Value) => boolean,
): void {
  for (const [key, value] of [...map]) {
    if (map.size <= limit) return;
    if (!isBusy(value)) map.delete(key);
  }
}
