import type { z } from 'zod';
import { describeIssues } from '../../../../electron/shared/api/validation';
import type { IpcErrorShape } from '../../lib/wire-types';
import { isServerRefusing } from '../../lib/error-messages';
import { t } from '../../lib/i18n';

/** Field messages by dotted path (`configuration.port`), the first message of each field. */
export type FieldErrors = Record<string, string>;

/** Runs a shared schema over a candidate: the parsed value, or every failing field by path. */
export function checkWithSchema<Schema extends z.ZodType>(
  schema: Schema,
  candidate: unknown,
): { ok: true; value: z.output<Schema> } | { ok: false; errors: FieldErrors } {
  const result = schema.safeParse(candidate);
  if (result.success) return { ok: true, value: result.data };
  const errors: FieldErrors = {};
  for (const issue of describeIssues(result.error)) errors[issue.path] ??= issue.message;
  return { ok: false, errors };
}

/**
 * A failed call in a technician's words, in the current language: what happened and, where it helps, what to
 * do. `what` is what the account may not do, already in words ("create integrations for this application").
 */
export function describeCallError(error: IpcErrorShape, what: string): string {
  switch (error.code) {
    case 'FORBIDDEN':
      return t('integrations:errorForbidden', { what });
    case 'NOT_FOUND':
      return t('integrations:errorNotFound', { message: error.message });
    case 'TIMEOUT':
      return t('integrations:errorTimeout');
    case 'NETWORK':
      if (isServerRefusing(error)) return t('app:callServerDown');
      return t('integrations:errorNetwork');
    case 'SESSION_EXPIRED':
    case 'UNAUTHENTICATED':
      return t('integrations:errorSession');
    case 'INVALID_INPUT':
      return t('integrations:errorInvalid');
    default:
      return t('integrations:errorRefused', { message: error.message });
  }
}
