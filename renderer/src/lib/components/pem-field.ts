// The ELECTRON lint pattern also matches the electron/ folder name; electron/shared is allowed here (DESIGN §3).
// eslint-disable-next-line no-restricted-imports
import { PemSchema } from '../../../../electron/shared/api/integration';

/** The message for text that is not a PEM block (the shared schema's rule), or null when empty or well formed. */
export function checkPemText(text: string): string | null {
  if (text.trim() === '') return null;
  const result = PemSchema.safeParse(text);
  return result.success ? null : (result.error.issues[0]?.message ?? 'must be in PEM form');
}
