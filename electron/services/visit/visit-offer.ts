import { format } from '../../shared/format';
import { t, type MessageKey } from '../../shared/i18n';
import { VisitEntrySchema, type GatewayIdentity, type JournalLine } from '../../shared/visit/journal-entry';
import type { VisitState } from './visit-state';

function nameOf(gateway: GatewayIdentity | undefined): string | undefined {
  return gateway?.name ?? gateway?.typed ?? gateway?.gatewayId;
}

/**
 * What an open visit holds, in words, as its journal tells it: the fields typed, photos kept, serial triages (with
 * the gateways they name), notes, measurements, commands, terminal sessions and the customer's acknowledgement;
 * "nothing recorded yet" for a visit with only its opening.
 */
export function describeVisitHoldings(state: VisitState, lines: readonly JournalLine[]): string {
  const kinds = new Map<string, number>();
  const triaged: string[] = [];
  for (const line of lines) {
    const parsed = VisitEntrySchema.safeParse(line.entry);
    if (!parsed.success) continue;
    const entry = parsed.data;
    kinds.set(entry.kind, (kinds.get(entry.kind) ?? 0) + 1);
    if (entry.kind === 'triage') {
      const name = nameOf(entry.gateway) ?? entry.result.title;
      if (!triaged.includes(name)) triaged.push(name);
    }
  }
  const fields: MessageKey[] = [
    ...(state.customer ? ['report:holdingCustomer' as const] : []),
    ...(state.technician ? ['report:holdingTechnician' as const] : []),
    ...(state.notes ? ['report:holdingNotesTyped' as const] : []),
  ];
  const amount = (kind: string) => kinds.get(kind) ?? 0;
  const counted = (count: number, key: MessageKey, params: Record<string, string> = {}) =>
    count > 0 ? [t(key, { count, ...params })] : [];
  const parts = [
    ...fields.map((key) => t(key)),
    ...counted(state.photos.length, 'report:holdingPhotos'),
    ...counted(amount('triage'), 'report:holdingTriages', { names: triaged.join(', ') }),
    ...counted(amount('note'), 'report:holdingNotes'),
    ...counted(amount('measurement'), 'report:holdingMeasurements'),
    ...counted(amount('command-sent'), 'report:holdingCommands'),
    ...counted(amount('wizard-outcome'), 'report:holdingWizardRuns'),
    ...counted(amount('terminal-opened'), 'report:holdingTerminalSessions'),
    ...(state.acknowledgement ? [t('report:holdingAcknowledgement')] : []),
  ];
  return parts.length === 0 ? t('report:holdingNothing') : parts.join(', ');
}

/**
 * The start-up notice offering the open visit again, with what it holds (describeVisitHoldings), in the language
 * main has when it is written.
 */
export function describeOpenVisitOffer(state: VisitState, lines: readonly JournalLine[]): string {
  const time = format.dateTime(state.arrivedAt);
  const holdings = describeVisitHoldings(state, lines);
  return state.site
    ? t('report:visitOfferAt', { site: state.site, time, holdings })
    : t('report:visitOfferUnnamed', { time, holdings });
}
