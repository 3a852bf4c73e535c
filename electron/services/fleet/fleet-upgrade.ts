import type { Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';
import { recorded, writeRecorded, type RecordedMessage } from '../../shared/i18n/recorded-message';
import {
  describeErrorRecord,
  formatDuration,
  isCancellation,
  isTransient,
  isUnresponsive,
} from '../commissioning/gateway-errors';
import { INSTALL_STATUS, SOFTWARE_TIMEOUT_MS, TASK_POLL_INTERVAL_MS } from '../commissioning/gateway-tasks';
import {
  describeInstallProgress,
  describeMoves,
  judgeMoves,
  readInstalledVersions,
  UNANSWERED_READ_NOTICE_MS,
  type PackageMove,
} from '../commissioning/software-versions';
import type { GatewayCommander } from '../commissioning/types';

/** How long an accepted upgrade may stay unseen (not under way, versions unmoved) before nobody can say. */
export const UPGRADE_START_GRACE_MS = 60_000;
/** Upper bound on status reads while following one upgrade (every loop is bounded). */
const MAX_POLLS = 100_000;
/** What a row says while its gateway does not answer after an upgrade was sent (in the current language). */
export function upgradeAwayWords(): string {
  return t('fleet:upgradeAway');
}

/** The upgrade a fleet job asked one gateway for: what it moves, and the install status read just before. */
export interface RequestedUpgrade {
  packages: PackageMove[];
  previousStatus: { lastOperation: string; lastStatus: number };
}

/**
 * How a followed upgrade ended: `done` only when every package reads back at a new version, `failed` when the
 * gateway is back and at least one package kept its old version, `unknown` when nobody can say yet (the gateway
 * did not come back, the versions could not be read, or following stopped).
 */
export interface UpgradeOutcome {
  status: 'done' | 'failed' | 'unknown';
  /** Why, in the current language. */
  reason: string;
  /** Why, as data (written in the language of whoever reads it). */
  words: RecordedMessage;
  /** Each package's version before, by package name (what the report shows as "before → after"). */
  before: Record<string, string>;
  /** Each package's version as read back, by package name, when it could be read. */
  after?: Record<string, string>;
}

/** How to follow an upgrade. */
export interface FollowUpgradeOptions {
  clock: Clock;
  signal: AbortSignal;
  /** Time limit of one status read. */
  commandTimeoutMs?: number;
  /** Stop following after this long: the outcome is then unknown (default SOFTWARE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Pause between status reads (default TASK_POLL_INTERVAL_MS). */
  pollIntervalMs?: number;
  /** What is happening now, in words, each time it changes ("installing 40 %", "restarting: …"). */
  onProgress?: (words: string) => void;
}

/** Each package's version when the upgrade was asked for, by package name. */
export function versionsBefore(requested: RequestedUpgrade): Record<string, string> {
  return Object.fromEntries(requested.packages.map((item) => [item.name, item.from]));
}

/**
 * Follows an upgrade that was sent to a gateway through its download, install and restart, then reads the
 * installed versions back: a package counts as upgraded only when its version moved from the one it had. A
 * gateway that does not answer (it restarts) is waited for until `timeoutMs`; the outcome is then unknown, never
 * done. Resolves, never rejects: cancelling ends in `unknown` (the gateway finishes what it started).
 */
export async function followUpgrade(
  commander: GatewayCommander,
  gatewayId: string,
  requested: RequestedUpgrade,
  options: FollowUpgradeOptions,
): Promise<UpgradeOutcome> {
  const outcome = await followUntilKnown(commander, gatewayId, requested, options);
  return { ...outcome, reason: writeRecorded(outcome.words) };
}

async function followUntilKnown(
  commander: GatewayCommander,
  gatewayId: string,
  requested: RequestedUpgrade,
  options: FollowUpgradeOptions,
): Promise<Omit<UpgradeOutcome, 'reason'>> {
  const { clock, signal } = options;
  const before = versionsBefore(requested);
  const timeoutMs = options.timeoutMs ?? SOFTWARE_TIMEOUT_MS;
  const startedAt = clock.now();
  const deadlineAt = startedAt + timeoutMs;
  const callOptions = { signal, timeoutMs: options.commandTimeoutMs };
  let lastWords = '';
  const say = (words: string) => {
    if (words === lastWords) return;
    lastWords = words;
    options.onProgress?.(words);
  };
  const unknown = (why: RecordedMessage): Omit<UpgradeOutcome, 'reason'> => ({
    status: 'unknown',
    words: recorded('fleet:upgradeUnknown', { packages: describeMoves(requested.packages), why }),
    before,
  });
  let hasSeenUnderWay = false;
  let hasSeenAway = false;
  let lastError: unknown;
  for (let poll = 1; poll <= MAX_POLLS; poll++) {
    try {
      // A read the restarting gateway leaves unanswered can take the server's whole timeout: say so meanwhile.
      const notice = clock.setTimeout(() => say(upgradeAwayWords()), UNANSWERED_READ_NOTICE_MS);
      const status = await commander
        .command(gatewayId, 'getLastInstallUpgradeStatus', {}, callOptions)
        .finally(() => clock.clearTimeout(notice));
      if (status.lastStatus === INSTALL_STATUS.IN_PROGRESS) {
        hasSeenUnderWay = true;
        say(t('fleet:upgrading', { progress: describeInstallProgress(status) }));
      } else {
        const isOurs =
          hasSeenUnderWay ||
          hasSeenAway ||
          status.lastOperation !== requested.previousStatus.lastOperation ||
          status.lastStatus !== requested.previousStatus.lastStatus;
        const installed = await readInstalledVersions(commander, gatewayId, callOptions);
        const verdict = judgeMoves(requested.packages, installed);
        if (verdict.moved.length === requested.packages.length)
          return {
            status: 'done',
            words: recorded('fleet:upgradedReadBack', { packages: verdict.moved.join(', ') }),
            before,
            after: verdict.after,
          };
        if (isOurs && verdict.unread.length > 0)
          return {
            ...unknown(recorded('fleet:whyVersionUnread', { packages: verdict.unread.join(', ') })),
            after: verdict.after,
          };
        if (isOurs) {
          const hasFailed = status.lastStatus === INSTALL_STATUS.FAILED;
          const values = {
            operation: status.lastOperation,
            stayed: verdict.stayed.join(', '),
            moved: verdict.moved.join(', '),
          };
          return {
            status: 'failed',
            words:
              verdict.moved.length === 0
                ? recorded(hasFailed ? 'fleet:notUpgradedFailed' : 'fleet:notUpgradedBack', values)
                : recorded(hasFailed ? 'fleet:partlyUpgradedFailed' : 'fleet:partlyUpgradedBack', values),
            before,
            after: verdict.after,
          };
        }
        if (clock.now() - startedAt >= UPGRADE_START_GRACE_MS)
          return unknown(
            recorded('fleet:whyNotUnderWay', { duration: formatDuration(UPGRADE_START_GRACE_MS) }),
          );
        say(t('fleet:awaitingUpgradeStart'));
      }
    } catch (error) {
      if (isCancellation(error) || signal.aborted) return unknown(recorded('fleet:whyCancelled'));
      if (!isTransient(error))
        return unknown(recorded('fleet:whyProgressFailed', { reason: describeErrorRecord(error) }));
      lastError = error;
      if (isUnresponsive(error)) {
        hasSeenAway = true;
        say(upgradeAwayWords());
      }
    }
    const remainingMs = deadlineAt - clock.now();
    if (remainingMs <= 0) break;
    try {
      await clock.sleep(Math.min(options.pollIntervalMs ?? TASK_POLL_INTERVAL_MS, remainingMs), signal);
    } catch {
      return unknown(recorded('fleet:whyCancelled'));
    }
  }
  return unknown(
    hasSeenAway
      ? recorded('fleet:whyNotBack', {
          duration: formatDuration(timeoutMs),
          reason: describeErrorRecord(lastError),
        })
      : recorded('fleet:whyTooLong', { duration: formatDuration(timeoutMs) }),
  );
}
