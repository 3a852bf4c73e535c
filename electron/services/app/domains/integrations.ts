import type { DomainContext, DomainHandlers } from './context';
import type { integrationsChannels } from '../../../shared/ipc/domains/integrations';

/** Handlers of the integrations channels (electron/shared/ipc/domains/integrations.ts). */
export function createIntegrationsHandlers(
  _context: DomainContext,
): DomainHandlers<typeof integrationsChannels> {
  return {};
}
