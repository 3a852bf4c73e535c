import type { DomainContext, DomainHandlers } from './context';
import type { gatewaysChannels } from '../../../shared/ipc/domains/gateways';

/** Handlers of the gateways channels (electron/shared/ipc/domains/gateways.ts). */
export function createGatewaysHandlers(_context: DomainContext): DomainHandlers<typeof gatewaysChannels> {
  return {};
}
