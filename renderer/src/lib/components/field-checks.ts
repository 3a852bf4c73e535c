// Checks of what a technician typed, each answering in words that name the rule and its limits, so a message can
// stand next to its field. They never change the text: a number out of range is refused as such rather than
// rounded, a text too long is reported rather than cut.

import { format } from '../../../../electron/shared/format';
import { t } from '../i18n';

/** The largest value of the gateway's integer settings: the server keeps them as 32-bit signed integers. */
export const INTEGER_SETTING_MAX = 2_147_483_647;

/** Bounds of a whole-number field. */
export interface WholeNumberRule {
  min: number;
  max: number;
  /** False lets the field stay empty (default true). */
  isRequired?: boolean;
}

/** The allowed range in words: "from 0 to 2,147,483,647". */
export function describeRange(rule: WholeNumberRule): string {
  return t('components:range', rangeOf(rule));
}

function rangeOf(rule: WholeNumberRule): { min: string; max: string } {
  return { min: format.number(rule.min), max: format.number(rule.max) };
}

/**
 * What is wrong with the text of a whole-number field, or null when it is a whole number within the rule's range
 * (or empty where that is allowed). `99999999999999999999` is "out of range", never rounded to 1e20.
 */
export function checkWholeNumber(text: string, rule: WholeNumberRule): string | null {
  const trimmed = text.trim();
  if (trimmed === '')
    return rule.isRequired === false ? null : t('components:wholeNumberRequired', rangeOf(rule));
  if (!/^[-+]?\d+$/.test(trimmed)) return t('components:notWholeNumber', { text: trimmed, ...rangeOf(rule) });
  // Digits compared as a number only after the length check: a 20-digit number is out of range, not rounded.
  const digits = trimmed.replace(/^[-+]?0*/, '');
  const isNegative = trimmed.startsWith('-') && digits !== '';
  const value = digits.length > 16 ? Number.POSITIVE_INFINITY : Number(digits || '0');
  const signed = isNegative ? -value : value;
  if (signed < rule.min || signed > rule.max)
    return t('components:outOfRange', { text: trimmed, ...rangeOf(rule) });
  return null;
}

/** The number of a field {@link checkWholeNumber} accepted (its text is a whole number within range). */
export function readWholeNumber(text: string): number {
  return Number(text.trim());
}

/** Bounds of a text field. */
export interface TextRule {
  maxLength: number;
  /** False lets the field stay empty (default true). */
  isRequired?: boolean;
  /** What the field holds, for the "required" message ("a description"). */
  what: string;
}

/** What is wrong with a text, or null. Length counts characters as the server does (after trimming). */
export function checkText(text: string, rule: TextRule): string | null {
  const length = [...text.trim()].length;
  if (length === 0)
    return rule.isRequired === false ? null : t('components:textRequired', { what: rule.what });
  if (length > rule.maxLength)
    return t('components:textTooLong', {
      count: length,
      max: rule.maxLength,
      excess: length - rule.maxLength,
    });
  return null;
}

/** "12 / 128 characters": the count shown under a text field while typing. */
export function describeLength(text: string, maxLength: number): string {
  return t('components:lengthCount', { length: [...text.trim()].length, count: maxLength });
}

// Whether a mouse button or finger is down, seen before any handler (capture phase) of the page.
let isPointerDown = false;
if (typeof document !== 'undefined') {
  document.addEventListener('pointerdown', () => (isPointerDown = true), true);
  document.addEventListener('pointerup', () => (isPointerDown = false), true);
}

/**
 * Calls `reveal` (which shows a field's error) when the field has been left. Left by a press on its form's submit
 * button, the error waits until the press is over: shown on the mousedown, it would push the button down before
 * the mouseup and the click would miss it. Left with the keyboard, it shows at once.
 */
export function revealAfterLeaving(event: FocusEvent, reveal: () => void): void {
  const next = event.relatedTarget;
  const isPressingSubmit = isPointerDown && next instanceof HTMLButtonElement && next.type === 'submit';
  if (!isPressingSubmit) {
    reveal();
    return;
  }
  // The click follows the pointerup in the same task: reveal after it (the next task, not a wait in the app's
  // time: no clock).
  // eslint-disable-next-line no-restricted-globals
  document.addEventListener('pointerup', () => setTimeout(reveal), { once: true, capture: true });
}
