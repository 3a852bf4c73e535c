import { isCommandName, type CommandRequest } from '../../shared/api';
import { IpcError } from '../../shared/ipc/result';
import type { CommandService } from '../../services/commands';
import type { CallCancellation } from '../call-cancellation';
import { mapServiceError } from '../error-mapping';
import type { ChannelHandlers, ErrorLog, SignedInSession } from './context';

/** What the console's gateway commands and `call:cancel` use. */
export interface CommandsDependencies {
  sessions: Pick<SignedInSession, 'summary'>;
  /** The console's way to the gateway: guard, audit (a change `sent` before it leaves), time limit. */
  commands: Pick<CommandService, 'send'>;
  /** Finds any long call by id (each domain adds the calls it keeps). */
  cancellation: Pick<CallCancellation, 'cancel'>;
  log: ErrorLog;
}

/**
 * Handlers of `gateway:command` (a command typed in the console, through the CommandService) and `call:cancel`
 * (any long call by its id; one that has ended is left alone).
 */
export function createCommandsHandlers({
  sessions,
  commands,
  cancellation,
  log,
}: CommandsDependencies): ChannelHandlers<'gateway:command' | 'call:cancel'> {
  return {
    'call:cancel': ({ callId }) => {
      cancellation.cancel(callId);
      return null;
    },
    'gateway:command': async ({ gatewayId, command, body, confirmation }) => {
      if (!isCommandName(command)) {
        throw new IpcError('INVALID_INPUT', 'Unknown gateway command.', [
          { path: 'command', message: `No gateway command named ${command}` },
        ]);
      }
      const summary = sessions.summary();
      // The console's disruptive commands and lockouts are confirmed like the wizards' (risk-guards.ts). The
      // body is unchecked here; the API client validates it against the command's schema before sending.
      try {
        return await commands.send({
          gatewayId,
          name: command,
          body: body as CommandRequest<typeof command>,
          guard: { confirmation },
          recordsAnswer: true,
          ...(summary ? { caller: { profileId: summary.profileId, user: summary.username } } : {}),
          describeFailure: (error) =>
            mapServiceError(error)?.message ?? (error instanceof Error ? error.message : String(error)),
          onRecordError: (error) => log.error(`audit write failed for ${command}`, error),
        });
      } catch (error) {
        throw mapServiceError(error) ?? error;
      }
    },
  };
}
