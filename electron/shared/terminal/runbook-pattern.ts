import { t } from '../i18n';

/**
 * The rules a runbook's pattern (a JavaScript regular expression) must follow, so that matching it can never hang
 * the main process. JavaScript's backtracking engine has no time limit, so the guarantee comes from two bounds
 * together (docs/user-guide.md, Runbooks):
 *
 * 1. the pattern: at most RUNBOOK_PATTERN_MAX_LENGTH characters; no backreference, no lookaround; no quantified
 *    group that holds a quantifier or an alternation (`(a+)+`, `(a|ab)*`: the exponential cases); at most
 *    MAX_UNBOUNDED_QUANTIFIERS of `*`, `+` and `{…}` (two already make a failing match cubic in the line's
 *    length, one quadratic) and MAX_OPTIONAL_QUANTIFIERS of `?` (each doubles the paths tried);
 * 2. the text: a pattern is tried on one line at a time, each cut to RUNBOOK_PATTERN_LINE_MAX characters, each
 *    finished line once; a line still without its end (a prompt) is tried again as it grows only while it holds at
 *    most RUNBOOK_PATTERN_PARTIAL_MAX characters.
 */

/** The longest pattern a runbook step may wait for. */
export const RUNBOOK_PATTERN_MAX_LENGTH = 200;

/** A pattern is tried on each line's first this many characters. */
export const RUNBOOK_PATTERN_LINE_MAX = 512;

/** A line still without its end is tried as it grows while it has at most this many characters (a prompt). */
export const RUNBOOK_PATTERN_PARTIAL_MAX = 128;

/** At most this many `*`, `+` or `{…}` in one pattern. */
const MAX_UNBOUNDED_QUANTIFIERS = 1;
/** At most this many `?` (optional) in one pattern. */
const MAX_OPTIONAL_QUANTIFIERS = 3;

interface GroupScan {
  hasQuantifier: boolean;
  hasAlternation: boolean;
}

/**
 * Why a pattern is refused, in words a technician can act on (in the language on screen when it is called), or undefined when it may be run. Compiles it too:
 * a pattern that is not a valid regular expression is refused with the engine's message.
 */
export function checkRunbookPattern(source: string): string | undefined {
  if (source.length === 0) return t('terminals:patternEmpty');
  if (source.length > RUNBOOK_PATTERN_MAX_LENGTH)
    return t('terminals:patternTooLong', { count: RUNBOOK_PATTERN_MAX_LENGTH });
  try {
    new RegExp(source);
  } catch (error) {
    return t('terminals:patternInvalid', { reason: error instanceof Error ? error.message : String(error) });
  }
  if (/\\[1-9]|\\k</.test(source)) return t('terminals:patternBackReference');
  if (/\(\?<?[=!]/.test(source)) return t('terminals:patternLookaround');
  const stack: GroupScan[] = [{ hasQuantifier: false, hasAlternation: false }];
  let unbounded = 0;
  let optional = 0;
  let lastClosed: GroupScan | undefined;
  for (let index = 0; index < source.length; index += 1) {
    const character = source[index]!;
    const current = stack.at(-1)!;
    const closed = lastClosed;
    lastClosed = undefined;
    if (character === '\\') {
      index += 1;
      continue;
    }
    if (character === '[') {
      index = endOfClass(source, index);
      continue;
    }
    if (character === '(') {
      stack.push({ hasQuantifier: false, hasAlternation: false });
      continue;
    }
    if (character === ')') {
      const group = stack.pop()!;
      const parent = stack.at(-1)!;
      parent.hasQuantifier ||= group.hasQuantifier;
      lastClosed = group;
      continue;
    }
    if (character === '|') {
      current.hasAlternation = true;
      continue;
    }
    const isUnbounded = character === '*' || character === '+' || character === '{';
    if (!isUnbounded && character !== '?') continue;
    // `?` right after a quantifier makes it lazy, and after `(` it starts a group's flags: neither quantifies.
    if (character === '?' && index > 0 && '*+?}('.includes(source[index - 1]!)) continue;
    if (closed && (closed.hasQuantifier || closed.hasAlternation)) return t('terminals:patternNestedRepeat');
    current.hasQuantifier = true;
    if (isUnbounded) unbounded += 1;
    else optional += 1;
    // A `{` that no `}` closes is a literal brace; counting it as a quantifier only errs on the safe side.
    if (character === '{') index = Math.max(index, source.indexOf('}', index));
    if (unbounded > MAX_UNBOUNDED_QUANTIFIERS) return t('terminals:patternRepeatsTwice');
    if (optional > MAX_OPTIONAL_QUANTIFIERS)
      return t('terminals:patternTooManyOptional', { count: MAX_OPTIONAL_QUANTIFIERS });
  }
  return undefined;
}

/** The index of the `]` that closes the character class opening at `start`. */
function endOfClass(source: string, start: number): number {
  for (let index = start + 1; index < source.length; index += 1) {
    if (source[index] === '\\') index += 1;
    else if (source[index] === ']' && index > start + 1) return index;
  }
  return source.length;
}
