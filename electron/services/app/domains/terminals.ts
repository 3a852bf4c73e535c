import type { DomainContext, DomainHandlers } from './context';
import type { terminalsChannels } from '../../../shared/ipc/domains/terminals';

/** Handlers of the terminals channels (electron/shared/ipc/domains/terminals.ts). */
export function createTerminalsHandlers(_context: DomainContext): DomainHandlers<typeof terminalsChannels> {
  return {};
}
