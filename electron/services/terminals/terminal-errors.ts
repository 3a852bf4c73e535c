import { IpcError } from '../../shared/ipc/result';
import { t } from '../../shared/i18n';
import { SerialOptionsError } from '../../shared/terminal/serial-options';
import { TERMINAL_ERROR_REASONS } from '../../shared/terminal/terminal-schemas';
import {
  HostKeyChangedError,
  HostKeyNotRefusedError,
  RootPasswordRequiredError,
  TunnelTimeoutError,
} from '../ssh';
import { RelayNotConfiguredError } from './terminal-secrets';
import {
  NotSerialSessionError,
  TerminalNotFoundError,
  TooManyTerminalsError,
  TriageBusyError,
  TriagePasswordError,
} from './terminal-limits';

const MAX_MESSAGE_LENGTH = 400;

/**
 * Turns the terminal services' errors into IPC errors the UI can act on: a root password to ask for
 * (UNAUTHENTICATED + ROOT_PASSWORD_REQUIRED), a changed host key with both fingerprints (FORBIDDEN +
 * HOST_KEY_CHANGED), a tunnel timeout in words (TIMEOUT); any other failure keeps its plain message (NETWORK),
 * since the SSH and serial services write their messages for the technician.
 */
export function mapTerminalError(error: unknown): IpcError {
  if (error instanceof IpcError) return error;
  if (error instanceof HostKeyChangedError) {
    return new IpcError('FORBIDDEN', trim(error.message), {
      reason: TERMINAL_ERROR_REASONS.hostKeyChanged,
      keyId: error.keyId,
      expected: error.expected,
      actual: error.actual,
    });
  }
  if (error instanceof HostKeyNotRefusedError) return new IpcError('FORBIDDEN', trim(error.message));
  if (error instanceof RootPasswordRequiredError) {
    return new IpcError('UNAUTHENTICATED', trim(error.message), {
      reason: TERMINAL_ERROR_REASONS.rootPasswordRequired,
    });
  }
  if (error instanceof TunnelTimeoutError) {
    return new IpcError('TIMEOUT', trim(error.message), { reason: TERMINAL_ERROR_REASONS.tunnelTimeout });
  }
  if (error instanceof RelayNotConfiguredError) {
    return new IpcError('INVALID_INPUT', trim(error.message), {
      reason: TERMINAL_ERROR_REASONS.relayNotConfigured,
    });
  }
  if (error instanceof SerialOptionsError) {
    return new IpcError(
      'INVALID_INPUT',
      t('terminals:serialSettingsInvalid'),
      error.problems.map((problem) => ({ path: '', message: problem })),
    );
  }
  if (error instanceof TriagePasswordError) {
    return new IpcError('UNAUTHENTICATED', trim(error.message), {
      reason: TERMINAL_ERROR_REASONS.rootPasswordRequired,
    });
  }
  if (error instanceof TriageBusyError) return new IpcError('INVALID_INPUT', error.message);
  if (error instanceof TooManyTerminalsError) return new IpcError('INVALID_INPUT', error.message);
  if (error instanceof TerminalNotFoundError) return new IpcError('NOT_FOUND', error.message);
  if (error instanceof NotSerialSessionError) return new IpcError('INVALID_INPUT', error.message);
  if (error instanceof RangeError) return new IpcError('INVALID_INPUT', trim(error.message));
  if (error instanceof Error) return new IpcError('NETWORK', trim(error.message));
  return new IpcError('INTERNAL', t('terminals:terminalInternal'));
}

function trim(message: string): string {
  return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
}
