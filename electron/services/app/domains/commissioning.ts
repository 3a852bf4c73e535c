import type { DomainContext, DomainHandlers } from './context';
import type { commissioningChannels } from '../../../shared/ipc/domains/commissioning';

/** Handlers of the commissioning channels (electron/shared/ipc/domains/commissioning.ts). */
export function createCommissioningHandlers(
  _context: DomainContext,
): DomainHandlers<typeof commissioningChannels> {
  return {};
}
