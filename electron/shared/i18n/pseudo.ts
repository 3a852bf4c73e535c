/**
 * The pseudo-locale's text, made from English: every letter accented, the whole 40 % longer and bracketed, so a
 * screen shows at a glance what is cut (a missing bracket), what is too wide, and what bypassed the catalogue
 * (plain ASCII). Placeholders (`{{name}}`) are kept as they are.
 */

const ACCENTED: Readonly<Record<string, string>> = {
  a: 'å',
  b: 'ƀ',
  c: 'ç',
  d: 'ð',
  e: 'é',
  f: 'ƒ',
  g: 'ĝ',
  h: 'ĥ',
  i: 'î',
  j: 'ĵ',
  k: 'ķ',
  l: 'ļ',
  m: 'ɱ',
  n: 'ñ',
  o: 'ö',
  p: 'þ',
  q: 'ǫ',
  r: 'ŕ',
  s: 'š',
  t: 'ţ',
  u: 'û',
  v: 'ṽ',
  w: 'ŵ',
  x: 'ẋ',
  y: 'ý',
  z: 'ž',
  A: 'Å',
  B: 'Ɓ',
  C: 'Ç',
  D: 'Ð',
  E: 'É',
  F: 'Ƒ',
  G: 'Ĝ',
  H: 'Ĥ',
  I: 'Î',
  J: 'Ĵ',
  K: 'Ķ',
  L: 'Ļ',
  M: 'Ṁ',
  N: 'Ñ',
  O: 'Ö',
  P: 'Þ',
  Q: 'Ǫ',
  R: 'Ŕ',
  S: 'Š',
  T: 'Ţ',
  U: 'Û',
  V: 'Ṽ',
  W: 'Ŵ',
  X: 'Ẋ',
  Y: 'Ý',
  Z: 'Ž',
};

const PLACEHOLDER = /(\{\{[^}]*\}\})/;
const LONGER_BY = 0.4;
/** Padding comes in short words, so the longer text can wrap where a real translation would. */
const PAD_WORD = '~~~~';

/** The pseudo-locale's version of an English message. */
export function pseudoLocalize(english: string): string {
  if (english === '') return english;
  const accented = english
    .split(PLACEHOLDER)
    .map((part) => (PLACEHOLDER.test(part) ? part : [...part].map((char) => ACCENTED[char] ?? char).join('')))
    .join('');
  let padding = Math.ceil(english.length * LONGER_BY);
  const words: string[] = [];
  while (padding > 0) {
    words.push(PAD_WORD.slice(0, Math.min(padding, PAD_WORD.length)));
    padding -= PAD_WORD.length + 1;
  }
  return `[${accented} ${words.join(' ')}]`;
}
