/** A value as a technician reads it in a diff: text as is, none as "(none)", objects as compact JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return '(none)';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** The words of each wizard outcome. */
export const OUTCOME_WORDS: Record<string, string> = {
  applied: 'Applied and verified',
  unchanged: 'Nothing to change',
  'rolled-back': 'Verification failed: previous settings restored',
  'rollback-failed': 'Verification failed and the previous settings could NOT be restored',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The badge tone of each outcome. */
export function outcomeTone(outcome: string): 'ok' | 'warn' | 'danger' | 'neutral' {
  if (outcome === 'applied' || outcome === 'unchanged') return 'ok';
  if (outcome === 'rolled-back' || outcome === 'cancelled') return 'warn';
  return 'danger';
}
