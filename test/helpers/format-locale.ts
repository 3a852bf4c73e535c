// Every test process writes times, numbers and durations in en-US, whatever the machine's language (LANG), so
// that a test reads the same text on every machine. A test about another locale asks formatterFor for it.
import { setFormatLocale } from '../../electron/shared/format';

setFormatLocale({ locale: 'en-US' });
