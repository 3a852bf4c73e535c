import { format } from '../../shared/format';
import { VisitEntrySchema, type GatewayIdentity, type JournalLine } from '../../shared/visit/journal-entry';
import type { VisitState } from './visit-state';

function count(amount: number, one: string, many = `${one}s`): string {
  return `${amount} ${amount === 1 ? one : many}`;
}

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
  const fields = [
    state.customer ? 'the customer' : '',
    state.technician ? 'the technician' : '',
    state.notes ? 'the notes typed' : '',
  ].filter(Boolean);
  const amount = (kind: string) => kinds.get(kind) ?? 0;
  const parts = [
    ...fields,
    state.photos.length > 0 ? count(state.photos.length, 'photo') : '',
    amount('triage') > 0 ? `${count(amount('triage'), 'serial triage')} (${triaged.join(', ')})` : '',
    amount('note') > 0 ? count(amount('note'), 'note') : '',
    amount('measurement') > 0 ? count(amount('measurement'), 'measurement') : '',
    amount('command-sent') > 0 ? count(amount('command-sent'), 'command') : '',
    amount('wizard-outcome') > 0 ? count(amount('wizard-outcome'), 'wizard run') : '',
    amount('terminal-opened') > 0 ? count(amount('terminal-opened'), 'terminal session') : '',
    state.acknowledgement ? "the customer's acknowledgement" : '',
  ].filter(Boolean);
  return parts.length === 0 ? 'nothing recorded yet' : parts.join(', ');
}

/** The start-up notice offering the open visit again, with what it holds (describeVisitHoldings). */
export function describeOpenVisitOffer(state: VisitState, lines: readonly JournalLine[]): string {
  return `The visit ${state.site ? `at ${state.site}` : 'not named yet'}, started ${format.dateTime(state.arrivedAt)}, is still open and goes on with everything in it: ${describeVisitHoldings(state, lines)}. End it under Site report when you leave.`;
}
