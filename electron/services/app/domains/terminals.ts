import type { DomainContext, DomainHandlers } from './context';
import type { terminalsChannels } from '../../../shared/ipc/domains/terminals';
import { IpcError } from '../../../shared/ipc/result';
import {
  createAppTerminals,
  mapTerminalError,
  type AppTerminalsOptions,
  type TerminalManager,
} from '../../terminals';

const managers = new WeakMap<DomainContext, TerminalManager>();

/**
 * Builds the terminals (SSH, serial) for an application and serves the terminals channels with them; until
 * this runs those channels answer that terminals are not available. Call once, from main or the browser host.
 */
export function attachTerminals(context: DomainContext, options: AppTerminalsOptions): TerminalManager {
  const manager = createAppTerminals(context, options);
  managers.set(context, manager);
  return manager;
}

/** Handlers of the terminals channels (electron/shared/ipc/domains/terminals.ts). */
export function createTerminalsHandlers(context: DomainContext): DomainHandlers<typeof terminalsChannels> {
  const run = async <T>(action: (manager: TerminalManager) => Promise<T> | T): Promise<T> => {
    const manager = managers.get(context);
    if (!manager) throw new IpcError('INTERNAL', 'Terminals are not available in this build.');
    try {
      return await action(manager);
    } catch (error) {
      const mapped = mapTerminalError(error);
      if (mapped.code === 'INTERNAL') context.log.error('terminal call failed', error);
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
    'serial:triage': ({ id, password, rememberPassword }) =>
      run((manager) =>
        manager.collectDiagnostics(id, {
          ...(password ? { password } : {}),
          ...(rememberPassword ? { rememberPassword } : {}),
        }),
      ),
  };
}
