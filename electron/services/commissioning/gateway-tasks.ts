import { randomUUID } from 'node:crypto';
import { t, type MessageKey } from '../../shared/i18n';
import { recorded, writeRecorded, type RecordedMessage } from '../../shared/i18n/recorded-message';
import { UPGRADE_ALL_PACKAGES, type CommandResponse } from '../../shared/api';
import type {
  BackupView,
  Diagnostics,
  RadioStatistics,
  SoftwareState,
  SpectralScan,
  TaskResult,
} from '../../shared/ipc/domains/gateway-task-answers';
import {
  AuditedGateway,
  COMMAND_TIMEOUT_MS,
  type GatewayRunEvent,
  type GatewayRunOptions,
} from './audited-gateway';
import {
  describeInstallProgress,
  judgeMoves,
  progressPercent,
  readInstalledVersions,
  UNANSWERED_READ_NOTICE_MS,
  type PackageMove,
} from './software-versions';
import type { GatewayCommander } from './types';
import {
  CancelledError,
  describeErrorRecord,
  formatDuration,
  RecordedError,
  isCancellation,
  isUnresponsive,
} from './gateway-errors';

/** lastStatus codes of getLastInstallUpgradeStatus (the spec leaves them open: docs/api.md). */
export const INSTALL_STATUS = { SUCCEEDED: 0, IN_PROGRESS: 1, FAILED: 2 } as const;
/** How long an install or upgrade (download, install, reboot) may take by default. */
export const SOFTWARE_TIMEOUT_MS = 30 * 60_000;
/** How long a spectral scan may take by default. */
export const SPECTRAL_SCAN_TIMEOUT_MS = 5 * 60_000;
/** How long a gateway told to restart may keep answering before the wait gives up on seeing it go down. */
export const RESTART_START_TIMEOUT_MS = 60_000;
/** Pause between progress reads by default. */
export const TASK_POLL_INTERVAL_MS = 3_000;
/** What each task's wait line is headed while it runs (a restore names its backup once it has read it). */
const TASK_TITLES: Record<string, MessageKey> = {
  createBackup: 'wizards:taskCreateBackup',
  restoreBackup: 'wizards:taskRestoreBackup',
  upgradeSoftware: 'wizards:taskUpgrade',
  installSoftware: 'wizards:taskInstall',
  reboot: 'wizards:taskReboot',
  resetRadioStatisticsCounters: 'wizards:taskResetCounters',
};
/** The "from" of a package an install adds (it had no version before): a marker, never shown. */
const NOT_INSTALLED = 'not installed';

/** What a task's body says it did: its result but the words as data (written in the task's language). */
type TaskBody = Omit<TaskResult, 'task' | 'outcome' | 'message'> & { words: RecordedMessage };

/** What a UI renders while a task runs. */
export type TaskEvent = GatewayRunEvent<TaskResult>;

/** Reads a backup's ISO 8601 date (with or without zone; without one it is taken as UTC, an API assumption). */
export function parseBackupDate(date: string): number | null {
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/.test(date);
  const time = Date.parse(hasZone ? date : `${date}Z`);
  return Number.isNaN(time) ? null : time;
}

/**
 * The gateway tasks that are not diff wizards — backups, software, reboot, radio statistics, spectral scan —
 * with the same safety as the wizards: every command audited, progress and waits as events, a reboot waited
 * through (the result says how long), cancellable with `cancel()`. Each task resolves with a TaskResult in
 * words; reads throw with a message a technician can act on.
 */
export class GatewayTasks extends AuditedGateway<TaskResult> {
  private controller = new AbortController();

  constructor(gatewayId: string, options: GatewayRunOptions) {
    super(gatewayId, options.runId ?? randomUUID(), options);
    options.signal?.addEventListener('abort', () => this.cancel(), { once: true });
  }

  /** Cancels the task under way (the gateway may still finish what it started). */
  cancel(): void {
    this.controller.abort(new CancelledError());
    this.controller = new AbortController();
  }

  /** The backups, newest first, with their dates as time. */
  async listBackups(): Promise<BackupView[]> {
    return this.readBackups(this.controller.signal, false);
  }

  /** The backups, newest first; `isAutomatic`: read by a task to follow what it did, not by the technician. */
  private async readBackups(signal: AbortSignal, isAutomatic: boolean): Promise<BackupView[]> {
    const { backups } = await this.command(signal, 'getBackups', {}, { isAutomatic });
    return backups
      .map((backup) => ({ ...backup, dateMs: parseBackupDate(backup.date) }))
      .sort((left, right) => (right.dateMs ?? 0) - (left.dateMs ?? 0));
  }

  /** Creates a backup with this description and resolves with its index where the gateway says it. */
  async createBackup(description: string): Promise<TaskResult & { index?: number }> {
    return this.task('createBackup', async (signal) => {
      await this.command(signal, 'createBackup', { description });
      const found = (await this.readBackups(signal, true)).find(
        (backup) => backup.description === description,
      );
      return { words: recorded('wizards:backupCreated', { backup: description }), index: found?.index };
    });
  }

  /**
   * Restores a backup (the gateway restarts) and waits until it answers again; the result names the backup by its
   * description (by its index only when the gateway no longer lists it).
   */
  async restoreBackup(index: number): Promise<TaskResult> {
    return this.task('restoreBackup', async (signal) => {
      const description = (await this.readBackups(signal, true)).find(
        (backup) => backup.index === index,
      )?.description;
      const name = description
        ? recorded('wizards:backupNamed', { backup: description })
        : recorded('wizards:backupNumbered', { index });
      this.setStep('applying', writeRecorded(recorded('wizards:stepRestoring', { name })));
      await this.sendDisruptive(signal, writeRecorded(recorded('wizards:takeRestore', { name })), () =>
        this.command(signal, 'restoreBackup', { index }),
      );
      const waitedMs = await this.awaitRestart(
        signal,
        writeRecorded(recorded('wizards:reasonRestartsWith', { name })),
      );
      return {
        words: description
          ? recorded('wizards:backupRestored', { backup: description, duration: formatDuration(waitedMs) })
          : recorded('wizards:backupNumberRestored', { index, duration: formatDuration(waitedMs) }),
        waitedMs,
      };
    });
  }

  /** Versions, upgradable and installable lists, BSP status and the last install status. */
  async readSoftware(): Promise<SoftwareState> {
    const signal = this.controller.signal;
    return {
      versions: await this.command(signal, 'getSoftwareVersions', {}),
      upgradable: await this.command(signal, 'getUpgradableSoftware', {}),
      installable: await this.command(signal, 'getInstallableSoftware', {}),
      bspStatus: await this.command(signal, 'getBspStatus', {}),
      lastStatus: await this.command(signal, 'getLastInstallUpgradeStatus', {}),
    };
  }

  /**
   * Upgrades one package, or all with UPGRADE_ALL_PACKAGES, following progress through the reboot, then reads the
   * versions back: "Upgraded kona-pkt-forwarder 4.2.1 → 4.3.0"; a package still at its old version fails the task.
   */
  async upgrade(packageName: string = UPGRADE_ALL_PACKAGES): Promise<TaskResult> {
    return this.task('upgradeSoftware', async (signal) => {
      const upgradable = await this.command(signal, 'getUpgradableSoftware', {});
      const moves = upgradable
        .filter((item) => packageName === UPGRADE_ALL_PACKAGES || item.name === packageName)
        .map((item) => ({ name: item.name, from: item.ver, to: item.newVer }));
      const what = packageName === UPGRADE_ALL_PACKAGES ? t('wizards:everyPackage') : packageName;
      const followed = await this.followInstall(signal, what, () =>
        this.command(signal, 'upgradeSoftware', { packageToUpgrade: packageName }),
      );
      return this.readBack(signal, 'upgrade', moves, followed);
    });
  }

  /** Installs a package from the installable list, following progress through the reboot, then reads it back. */
  async install(packageName: string): Promise<TaskResult> {
    return this.task('installSoftware', async (signal) => {
      const offered = (await this.command(signal, 'getInstallableSoftware', {})).find(
        (item) => item.name === packageName,
      );
      const followed = await this.followInstall(signal, packageName, () =>
        this.command(signal, 'installSoftware', { packageToInstall: packageName }),
      );
      return this.readBack(
        signal,
        'install',
        [{ name: packageName, from: NOT_INSTALLED, to: offered?.ver ?? t('wizards:offeredVersion') }],
        followed,
      );
    });
  }

  /** Reboots the gateway and waits until it answers again. */
  async reboot(): Promise<TaskResult> {
    return this.task('reboot', async (signal) => {
      await this.sendDisruptive(signal, t('wizards:takeReboot'), () => this.command(signal, 'reboot', {}));
      const waitedMs = await this.awaitRestart(signal, t('wizards:reasonRebooting'));
      return { words: recorded('wizards:rebooted', { duration: formatDuration(waitedMs) }), waitedMs };
    });
  }

  /** The counters of each radio index given (antenna count first when none are given). */
  async readRadioStatistics(indexes?: number[]): Promise<RadioStatistics[]> {
    const signal = this.controller.signal;
    let chosen = indexes;
    if (!chosen) {
      const { antennasCount } = await this.command(signal, 'getAntennasCount', {});
      chosen = Array.from({ length: Math.max(1, antennasCount) }, (_, index) => index);
    }
    const results: RadioStatistics[] = [];
    for (const index of chosen)
      results.push({ index, statistics: await this.command(signal, 'getRadioStatistics', { index }) });
    return results;
  }

  /** Resets every radio's counters to zero. */
  async resetRadioStatistics(): Promise<TaskResult> {
    return this.task('resetRadioStatisticsCounters', async (signal) => {
      await this.command(signal, 'resetRadioStatisticsCounters', undefined);
      return { words: recorded('wizards:countersReset') };
    });
  }

  /** Follows the spectral scan's progress and then reads its results. */
  async spectralScan(timeoutMs = SPECTRAL_SCAN_TIMEOUT_MS): Promise<SpectralScan> {
    const signal = this.controller.signal;
    const params = await this.command(signal, 'getSpectralScanParams', {});
    const { isDone, value } = await this.context(signal).poll(
      () => this.command(signal, 'getSpectralScanProgress', {}),
      (answer) => {
        const status = (answer as { status?: unknown } | null)?.status;
        return status === undefined
          ? progressPercent(answer) === 100
          : !/PROGRESS|RUNNING/i.test(String(status));
      },
      {
        timeoutMs,
        intervalMs: this.options.pollIntervalMs ?? TASK_POLL_INTERVAL_MS,
        describe: (answer) => {
          const percent = progressPercent(answer);
          return percent === undefined
            ? t('wizards:scanRunning')
            : t('wizards:scanProgress', { percent: Math.round(percent) });
        },
        isProgress: true,
      },
    );
    if (!isDone)
      throw new Error(
        t('wizards:scanTooLong', { duration: formatDuration(timeoutMs), last: JSON.stringify(value) ?? '' }),
      );
    this.progress(t('wizards:scanFinished'), 1);
    return { params, results: await this.command(signal, 'getSpectralScanResults', {}) };
  }

  /** Identity, antennas, GPS and BSP status in one read. */
  async readDiagnostics(): Promise<Diagnostics> {
    const signal = this.controller.signal;
    return {
      info: await this.command(signal, 'getGatewayInfo', {}),
      antennas: await this.command(signal, 'getAntennasCount', {}),
      gps: await this.command(signal, 'getGpsCoordinates', {}),
      bspStatus: await this.command(signal, 'getBspStatus', {}),
    };
  }

  /** Pings a destination from the gateway. */
  async ping(destination: string, packetsCount = 4): Promise<CommandResponse<'ping'>> {
    return this.command(this.controller.signal, 'ping', { destination, packetsCount });
  }

  /**
   * Reads the versions back after an install or upgrade the gateway reports finished: every package moved is the
   * result in words with its versions; one still at its old version (or not installed) is a failure.
   */
  private async readBack(
    signal: AbortSignal,
    kind: 'upgrade' | 'install',
    moves: PackageMove[],
    followed: { waitedMs: number },
  ): Promise<TaskBody> {
    const audited: GatewayCommander = {
      command: (_gatewayId, name, request) => this.command(signal, name, request),
    };
    const installed = await readInstalledVersions(audited, this.gatewayId, { signal });
    const { moved, stayed, unread, after } = judgeMoves(moves, installed);
    const before = Object.fromEntries(
      moves.filter((item) => item.from !== NOT_INSTALLED).map((item) => [item.name, item.from]),
    );
    const isInstall = kind === 'install';
    if (stayed.length > 0 || (unread.length > 0 && isInstall)) {
      const still = [
        ...stayed.map((item) => recorded('wizards:stillInstalled', { item })),
        ...unread.map((item) => recorded('wizards:notInstalled', { item })),
      ].reduce((joined, next) => recorded('wizards:listed', { first: joined, next }));
      throw new RecordedError(
        moved.length > 0
          ? recorded(isInstall ? 'wizards:finishedButInstalled' : 'wizards:finishedButUpgraded', {
              still,
              moved: moved.join(', '),
            })
          : recorded('wizards:finishedBut', { still }),
      );
    }
    const packages = moved.map((item) => item.replace(` ${NOT_INSTALLED} → `, ' ')).join(', ');
    const done = recorded(isInstall ? 'wizards:installed' : 'wizards:upgraded', {
      packages: packages || t('wizards:nothingReadBack'),
    });
    const withUnread =
      unread.length > 0 ? recorded('wizards:versionUnread', { done, packages: unread.join(', ') }) : done;
    return {
      words:
        followed.waitedMs > 0
          ? recorded('wizards:softwareAway', {
              done: withUnread,
              duration: formatDuration(followed.waitedMs),
            })
          : recorded('wizards:sentence', { text: withUnread }),
      waitedMs: followed.waitedMs,
      before,
      after,
    };
  }

  private async followInstall(
    signal: AbortSignal,
    what: string,
    start: () => Promise<unknown>,
  ): Promise<{ waitedMs: number }> {
    const before = await this.command(signal, 'getLastInstallUpgradeStatus', {}, { isAutomatic: true });
    const startedAt = this.clock.now();
    const awayWords = t('wizards:waitingInstallRestart', { what });
    await this.sendDisruptive(signal, t('wizards:takeInstall', { what }), start);
    let seenRunning = false;
    let waitedMs = 0;
    const deadlineAt = startedAt + (this.options.gatewayReturnTimeoutMs ?? SOFTWARE_TIMEOUT_MS);
    for (let attempt = 1; attempt <= 100_000; attempt++) {
      const beforeRead = this.clock.now();
      // A read the restarting gateway leaves unanswered can take the server's whole timeout: say so meanwhile.
      const notice = this.clock.setTimeout(() => this.wait(awayWords, deadlineAt), UNANSWERED_READ_NOTICE_MS);
      const status = await this.command(
        signal,
        'getLastInstallUpgradeStatus',
        {},
        { isAutomatic: true },
      ).finally(() => this.clock.clearTimeout(notice));
      // The read waits through the reboot by itself; count how long it took beyond a normal answer.
      if (this.clock.now() - beforeRead > (this.options.pollIntervalMs ?? TASK_POLL_INTERVAL_MS))
        waitedMs += this.clock.now() - beforeRead;
      const isNew = seenRunning || status.lastOperation !== before.lastOperation;
      if (status.lastStatus === INSTALL_STATUS.IN_PROGRESS) {
        seenRunning = true;
        const percent = progressPercent(status);
        this.progress(
          t('wizards:installProgress', { what, progress: describeInstallProgress(status) }),
          percent === undefined ? undefined : percent / 100,
          deadlineAt,
        );
      } else if (isNew && status.lastStatus === INSTALL_STATUS.SUCCEEDED) {
        this.progress(t('wizards:installDone', { what }), 1);
        return { waitedMs };
      } else if (isNew && status.lastStatus === INSTALL_STATUS.FAILED) {
        throw new Error(
          t('wizards:installFailed', { operation: status.lastOperation, status: status.lastStatus }),
        );
      }
      const remainingMs = deadlineAt - this.clock.now();
      if (remainingMs <= 0) break;
      await this.clock.sleep(
        Math.min(this.options.pollIntervalMs ?? TASK_POLL_INTERVAL_MS, remainingMs),
        signal,
      );
    }
    throw new Error(t('wizards:installTooLong', { what, duration: formatDuration(deadlineAt - startedAt) }));
  }

  /**
   * Sends a command that restarts the gateway: no answer at all is taken as "it went down", not a failure. A
   * gateway going down may leave the command unanswered for the whole command timeout, so the wait for its answer
   * is said, with its deadline, from the moment it is sent.
   */
  private async sendDisruptive(
    signal: AbortSignal,
    what: string,
    send: () => Promise<unknown>,
  ): Promise<void> {
    this.wait(
      t('wizards:waitingToTake', { what }),
      this.clock.now() + (this.options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS),
    );
    try {
      await send();
    } catch (error) {
      if (!isUnresponsive(error)) throw error;
      this.progress(t('wizards:noAnswerRestarting'));
    }
  }

  /**
   * Waits until the gateway has gone away (a restart that has not begun still answers; given
   * RESTART_START_TIMEOUT_MS) and then until it answers again. Resolves with the whole time it took.
   */
  private async awaitRestart(signal: AbortSignal, reason: string): Promise<number> {
    const startedAt = this.clock.now();
    const deadlineAt = startedAt + RESTART_START_TIMEOUT_MS;
    this.wait(t('wizards:waitingToGoDown', { reason }), deadlineAt);
    for (let attempt = 1; attempt <= 1_000; attempt++) {
      const remainingMs = deadlineAt - this.clock.now();
      if (remainingMs <= 0) break;
      try {
        // A probe still unanswered at the deadline counts as "gone down": the wait never outlasts what it says.
        await this.commands.commander().command(
          this.gatewayId,
          'getBspStatus',
          {},
          {
            signal,
            timeoutMs: Math.min(this.options.commandTimeoutMs ?? COMMAND_TIMEOUT_MS, remainingMs),
          },
        );
      } catch (error) {
        if (signal.aborted) throw new CancelledError();
        if (isUnresponsive(error)) break;
        throw error;
      }
      await this.clock.sleep(this.options.pollIntervalMs ?? TASK_POLL_INTERVAL_MS, signal);
    }
    await this.waitForReturn(signal, reason);
    return this.clock.now() - startedAt;
  }

  private async task<Extra extends object>(
    name: string,
    body: (signal: AbortSignal) => Promise<TaskBody & Extra>,
  ): Promise<TaskResult & Partial<Extra>> {
    const signal = this.controller.signal;
    const startedAt = this.clock.now();
    const title = TASK_TITLES[name];
    this.setStep('applying', title ? t(title) : name);
    let result: TaskResult & Partial<Extra>;
    let words: RecordedMessage;
    try {
      const { words: said, ...outcome } = await body(signal);
      words = said;
      result = { ...outcome, message: writeRecorded(said), task: name, outcome: 'ok' } as TaskResult &
        Partial<Extra>;
    } catch (error) {
      const cancelled = isCancellation(error) || signal.aborted;
      words = cancelled
        ? recorded('wizards:taskCancelled', { task: title ? recorded(title) : name })
        : describeErrorRecord(error);
      result = {
        task: name,
        outcome: cancelled ? 'cancelled' : 'failed',
        message: writeRecorded(words),
      } as TaskResult & Partial<Extra>;
    }
    await this.audit({
      name,
      outcome: result.outcome,
      startedAt,
      ...(result.outcome === 'ok' ? {} : { error: result.message }),
      // `words`: the message as data, so the report can write it in its own language.
      response: { message: result.message, words },
      ...(result.before === undefined ? {} : { before: result.before }),
      ...(result.after === undefined ? {} : { after: result.after }),
    });
    this.setStep('finished', result.message);
    this.emitEvent({ type: 'result', result });
    return result;
  }
}
