/**
 * What views import to write words: the one catalogue's `t`, following the language setting
 * (state/language.svelte.ts) and redrawing in place when it changes.
 */

export { t, type MessageKey } from '../../../electron/shared/i18n';
