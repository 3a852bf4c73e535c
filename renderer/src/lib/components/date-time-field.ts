import { DATE_TIME_FIELD_PATTERN, format, type Formatter } from '../../../../electron/shared/format';
import { t } from '../i18n';

/**
 * The line under a date field, which its input names with aria-describedby: what the text reads as in the app's
 * locale ("Reads as 26 Nov 2026, 14:05") once it names a date, else how to write one. A screen reader hears the
 * date as the app writes it, whatever the browser's language.
 */
export function describeDateTimeField(text: string, formatter: Formatter = format): string {
  const at = text.trim() === '' ? undefined : formatter.parseDateTimeField(text);
  return at === undefined
    ? t('components:dateTimeHowTo', { pattern: DATE_TIME_FIELD_PATTERN, example: '2026-11-26 14:05' })
    : t('components:dateTimeReadsAs', { date: formatter.dateTime(at) });
}
