import { PemSchema } from '../../../../electron/shared/api/integration';
import { t } from '../i18n';

/** The message for text that is not a PEM block (the shared schema's rule), or null when empty or well formed. */
export function checkPemText(text: string): string | null {
  if (text.trim() === '') return null;
  const result = PemSchema.safeParse(text);
  return result.success ? null : (result.error.issues[0]?.message ?? t('components:pemInvalid'));
}
