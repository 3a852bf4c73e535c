import { t, type MessageKey } from '../../lib/i18n';

/** A value as a technician reads it in a diff: text as is, none as "(none)", objects as compact JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined) return '—';
  if (value === null) return t('wizards:valueNone');
  if (typeof value === 'boolean') return value ? t('wizards:valueYes') : t('wizards:valueNo');
  if (typeof value === 'string' || typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** The words of each wizard outcome (keys: `t` writes them where shown). */
export const OUTCOME_WORDS: Record<string, MessageKey> = {
  applied: 'wizards:outcomeApplied',
  unchanged: 'wizards:outcomeUnchanged',
  'rolled-back': 'wizards:outcomeRolledBack',
  'rollback-failed': 'wizards:outcomeRollbackFailed',
  failed: 'wizards:outcomeFailed',
  cancelled: 'wizards:outcomeCancelled',
};

/** An outcome in words; one main invents later shows as "Other (value)". */
export function outcomeWords(outcome: string): string {
  const key = OUTCOME_WORDS[outcome];
  return key ? t(key) : t('enums:otherValue', { value: outcome });
}

/** The badge tone of each outcome. */
export function outcomeTone(outcome: string): 'ok' | 'warn' | 'danger' | 'neutral' {
  if (outcome === 'applied' || outcome === 'unchanged') return 'ok';
  if (outcome === 'rolled-back' || outcome === 'cancelled') return 'warn';
  return 'danger';
}
