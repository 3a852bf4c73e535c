import type { DomainHandlers, ErrorLog } from './context';
import type { terminalsChannels } from '../../shared/ipc/domains/terminals';
import { IpcError } from '../../shared/ipc/result';
import { t } from '../../shared/i18n';
import { mapTerminalError, type TerminalManager } from '../../services/terminals';
import { JournalReadOnlyError, JournalWriteError, VisitRefusedError } from '../../services/visit';
import { mapServiceError } from '../error-mapping';

/** What the terminals domain uses: the terminal manager and the log. */
export interface TerminalsDependencies {
  /**
   * The terminal manager, once the composition root has built it (FieldKitServices.attachTerminals); until then
   * the terminals channels answer that terminals are not available.
   */
  terminals(): TerminalManager | undefined;
  log: ErrorLog;
}

/** Handlers of the terminals channels (electron/shared/ipc/domains/terminals.ts). */
export function createTerminalsHandlers({
  terminals,
  log,
}: TerminalsDependencies): DomainHandlers<typeof terminalsChannels> {
  const run = async <T>(action: (manager: TerminalManager) => Promise<T> | T): Promise<T> => {
    const manager = terminals();
    if (!manager) throw new IpcError('INTERNAL', t('terminals:terminalsUnavailable'));
    try {
      return await action(manager);
    } catch (error) {
      // An action the visit journal could not record was not done: the page is told so in the journal's words.
      const isNotRecorded =
        error instanceof JournalWriteError ||
        error instanceof JournalReadOnlyError ||
        error instanceof VisitRefusedError;
      const mapped = (isNotRecorded ? mapServiceError(error) : undefined) ?? mapTerminalError(error);
      if (mapped.code === 'INTERNAL') log.error('terminal call failed', error);
      throw mapped;
    }
  };
  const done = () => null;
  return {
    'terminals:list': () =>
      run((manager) => ({ sessions: manager.list(), logs: manager.logs(), triages: manager.triages() })),
    'terminals:attach': () =>
      run((manager) => {
        const recent = manager.recentOutput();
        manager.writeOffAcknowledgements();
        const replays = recent.map((replay) => ({
          ...replay,
          data: Buffer.from(replay.data.buffer, replay.data.byteOffset, replay.data.byteLength).toString(
            'base64',
          ),
        }));
        return { replays };
      }),
    'serial:ports': () => run((manager) => manager.listSerialPorts()),
    'serial:open': (input) => run((manager) => manager.openSerial(input)),
    'ssh:open-reverse': (input) => run((manager) => manager.openReverse(input)),
    'ssh:open-direct': (input) => run((manager) => manager.openDirect(input)),
    'ssh:replace-host-key': ({ keyId, fingerprint }) =>
      run((manager) => manager.replaceHostKey(keyId, fingerprint).then(done)),
    'terminal:write': ({ id, data }) => run((manager) => (manager.write(id, data), null)),
    'terminal:resize': ({ id, cols, rows }) => run((manager) => (manager.resize(id, cols, rows), null)),
    'terminal:ack': ({ id, bytes }) => run((manager) => (manager.acknowledge(id, bytes), null)),
    'terminal:close': ({ id }) => run((manager) => manager.close(id)),
    'terminal:reconnect': ({ id, password }) => run((manager) => manager.reconnect(id, password)),
    'serial:break': ({ id }) => run((manager) => manager.sendBreak(id).then(done)),
    'serial:signals': ({ id, dtr, rts }) =>
      run((manager) =>
        manager.setSignals(id, {
          ...(dtr !== undefined ? { dtr } : {}),
          ...(rts !== undefined ? { rts } : {}),
        }),
      ),
    'serial:paste': ({ id, text, delayMs }) => run((manager) => manager.paste(id, text, delayMs).then(done)),
    'serial:raw-view': ({ id, isOn }) => run((manager) => (manager.setRawView(id, isOn), null)),
    'serial:disconnect': ({ id }) => run((manager) => manager.disconnect(id)),
    'serial:send-file': ({ id, protocol, name, base64 }) =>
      run((manager) => manager.sendFile(id, { protocol, name, data: Buffer.from(base64, 'base64') })),
    'serial:send-file-cancel': ({ id }) => run((manager) => (manager.cancelSendFile(id), null)),
    'serial:triage-cancel': ({ id }) => run((manager) => (manager.cancelDiagnostics(id), null)),
    'serial:triage': ({ id, password, rememberPassword }) =>
      run((manager) =>
        manager.collectDiagnostics(id, {
          ...(password ? { password } : {}),
          ...(rememberPassword ? { rememberPassword } : {}),
        }),
      ),
  };
}
