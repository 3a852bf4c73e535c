/**
 * The report's language, given by ReportDocument to every component of the document through a Svelte context:
 * the components write their own words (headings, column names) in the language the report was exported in, never
 * the app's. Works alike in the app's preview and in `svelte/server` rendering.
 */

import { getContext, setContext } from 'svelte';
import {
  translatorFor,
  type DisplayLanguage,
  type MessageKey,
  type MessageParams,
  type Translator,
} from '../../i18n';

const LANGUAGE_KEY = Symbol('report-language');

/** Gives the document's components the report's language (read each time, so a new preview redraws in it). */
export function provideReportLanguage(language: () => DisplayLanguage): void {
  setContext(LANGUAGE_KEY, language);
}

/** Writes messages in the report's language (English outside a ReportDocument). */
export function reportTranslator(): Translator {
  const language = getContext<(() => DisplayLanguage) | undefined>(LANGUAGE_KEY) ?? (() => 'en' as const);
  return (key, params) => translatorFor(language())(key, params);
}

/** A piece of a message: its text, or the place of one of its slots (a value drawn with its own markup). */
export type MessagePiece = { text: string; slot?: undefined } | { slot: string; text?: undefined };

const MARK = '\u0000';

/**
 * A message cut where its slots stand, so a value drawn with markup (a coloured verdict, a code span) keeps its
 * place in the sentence of every language: `pieces(translate, 'document:x', { time }, ['verdict'])`.
 */
export function messagePieces(
  translate: Translator,
  key: MessageKey,
  params: MessageParams,
  slots: readonly string[],
): MessagePiece[] {
  const marked = Object.fromEntries(slots.map((slot) => [slot, `${MARK}${slot}${MARK}`]));
  return translate(key, { ...params, ...marked })
    .split(MARK)
    .flatMap((text, index): MessagePiece[] =>
      index % 2 === 1 ? [{ slot: text }] : text === '' ? [] : [{ text }],
    );
}
