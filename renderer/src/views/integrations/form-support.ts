import type { z } from 'zod';
import { describeIssues } from '../../../../electron/shared/api/validation';
import type { IpcErrorShape } from '../../lib/wire-types';

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

/** A failed call in a technician's words: what happened and, where it helps, what to do. */
export function describeCallError(error: IpcErrorShape, what: string): string {
  switch (error.code) {
    case 'FORBIDDEN':
      return `Your account may not ${what}. Ask your administrator for access.`;
    case 'NOT_FOUND':
      return `The server does not know it: ${error.message}`;
    case 'TIMEOUT':
      return 'The server did not answer in time. The connection may be slow; try again.';
    case 'NETWORK':
      return "Can't reach the server. Check this laptop's network (hotspot, Wi-Fi, VPN) and try again.";
    case 'SESSION_EXPIRED':
    case 'UNAUTHENTICATED':
      return 'Your session has expired. Sign in again, then retry.';
    case 'INVALID_INPUT':
      return 'Some fields are not valid; see the messages next to them.';
    default:
      return `The server refused: ${error.message}`;
  }
}
