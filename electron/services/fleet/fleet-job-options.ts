import type { Clock } from '../../shared/clock';
import type { AuditSink } from '../audit';
import type { CommandJournal } from '../commands/command-service';
import type { RiskConfirmation } from '../commands/risk-guards';
import type { GatewayCommander } from '../commissioning/types';

/** What a fleet job needs. */
export interface FleetJobOptions {
  commander: GatewayCommander;
  profileId: string;
  user: string;
  audit?: AuditSink;
  /** The visit journal: each row's change recorded as sent before it leaves (refused: not sent), then its row. */
  journal?: CommandJournal;
  clock?: Clock;
  concurrency?: number;
  maxAttempts?: number;
  offlineAttempts?: number;
  retryDelayMs?: number;
  retryMaxDelayMs?: number;
  commandTimeoutMs?: number;
  /** How long an upgraded gateway is followed until it answers with its new versions (default SOFTWARE_TIMEOUT_MS). */
  gatewayReturnTimeoutMs?: number;
  /** Pause between progress reads of an upgrade (default TASK_POLL_INTERVAL_MS). */
  pollIntervalMs?: number;
  signal?: AbortSignal;
  jobId?: string;
  /** Random source for retry jitter (tests pass a fixed one). */
  random?: () => number;
  /**
   * What the technician confirmed: the gateway count (always) and, for a risky change, the yes to its
   * disruptions and each lockout's typed text (assessFleetChange). Without it the job is refused.
   */
  confirmation?: RiskConfirmation;
}
