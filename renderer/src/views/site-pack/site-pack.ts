import { format } from '../../../../electron/shared/format';
import { t } from '../../lib/i18n';
import type { EventPayload } from '../../lib/wire-types';

/** True while a preparation is still going (not done, failed or cancelled). */
export function isRunning(progress: EventPayload<'site-pack:progress'>): boolean {
  return progress.phase === 'list' || progress.phase === 'details' || progress.phase === 'writing';
}

/** What a choice of gateways costs, in one line (8 reads a gateway, at most 500 gateways). */
export function describeSelection(choice: 'all' | 'search' | 'entries', count: number): string {
  if (choice === 'entries') {
    return count === 0
      ? t('sitePack:selectionEmpty')
      : t('sitePack:selectionCost', { count, reads: format.number(count * 8) });
  }
  return t('sitePack:selectionAll');
}

/** A pack's scope as the status gives it: kind, id and, when the server named it, its name. */
export interface ScopeLike {
  kind: 'provider' | 'customer' | 'group';
  id: string;
  name?: string | undefined;
}

/** What a scope covers, in words: its name when known, else what it is and its id. */
export function describeScope(scope: ScopeLike): string {
  if (scope.name) return scope.name;
  switch (scope.kind) {
    case 'provider':
      return t('sitePack:scopeProvider', { id: scope.id });
    case 'customer':
      return t('sitePack:scopeCustomer', { id: scope.id });
    case 'group':
      return t('sitePack:scopeGroup', { id: scope.id });
  }
}

/** "Site pack of ACME Rooftops — 12 gateways, 412 kB, 25 Nov 2026, 14:02": what a kept pack is, in one line. */
export function describePack(
  pack: { scope: ScopeLike; gatewayCount: number; sizeBytes: number; preparedAt: number },
  formatTime: (time: number) => string,
): string {
  return t('sitePack:packSummary', {
    scope: describeScope(pack.scope),
    count: pack.gatewayCount,
    size: format.bytes(pack.sizeBytes),
    time: formatTime(pack.preparedAt),
  });
}
