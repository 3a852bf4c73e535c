import { badArgument } from '../failure';
import type { CommandHandlers } from './context';
import { startReboot, toLocalDateTime } from './state';

/** Most backups a gateway keeps; creating one more is refused. */
export const BACKUP_LIMIT = 10;

/** Backup commands: list, create (captures the configuration), restore (puts it back and reboots). */
export const backupCommands: CommandHandlers<'getBackups' | 'createBackup' | 'restoreBackup'> = {
  getBackups({ state }) {
    return {
      status: 'OK',
      backups: state.backups.map(({ description, date, index }) => ({ description, date, index })),
    };
  },

  createBackup({ state, now }, { description }) {
    if (state.backups.length >= BACKUP_LIMIT) {
      throw badArgument(`The gateway keeps at most ${BACKUP_LIMIT} backups`);
    }
    const index = Math.max(-1, ...state.backups.map((backup) => backup.index)) + 1;
    state.backups.push({
      description,
      date: toLocalDateTime(now),
      index,
      configuration: structuredClone(state.configuration),
    });
    return { status: 'OK', index };
  },

  restoreBackup({ state, now, timings }, { index }) {
    const backup = state.backups.find((candidate) => candidate.index === index);
    if (!backup) {
      const known = state.backups.map((candidate) => candidate.index).join(', ') || 'none';
      throw badArgument(`No backup with index ${index} (backups: ${known})`);
    }
    state.configuration = structuredClone(backup.configuration);
    startReboot(state, now, timings);
    return { status: 'OK' };
  },
};
