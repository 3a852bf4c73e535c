// The one MAC form of the app: what the server stores (upper-case hex, no separator, e.g. 647FDAFFFE001CAD) is what
// is sent; what a person reads is the same digits in colon-separated pairs (64:7F:DA:FF:FE:00:1C:AD), as printed on
// a gateway's label. Both forms are derived here so the list, the search, the gateway page and the offline pack
// agree.

/** Separators a person may type between MAC digits: colon, hyphen, dot (Cisco style) or a space. */
const SEPARATOR = /[:\-.\s]/g;
/** Hex digit groups of one to four digits with at least one separator between them (`1c:ad`, `647f.dafe`). */
const SEPARATED_HEX = /^[0-9a-f]{1,4}(?:[:\-.\s][0-9a-f]{1,4})+$/i;
/** Whole MAC lengths in hex digits: EUI-48 and EUI-64 (a LoRaWAN gateway EUI). */
const WHOLE_MAC_DIGITS = new Set([12, 16]);

/**
 * The digits of a MAC (whole or part) typed in any case with `:`, `-`, `.`, a space or no separator, as the server
 * stores them: upper-case hex without separators. Null when the text is not made of hex digits and those
 * separators only (a name, for instance).
 */
export function normalizeMac(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const digits = trimmed.replace(SEPARATOR, '');
  if (!/^[0-9a-f]+$/i.test(digits)) return null;
  if (digits.length !== trimmed.length && !SEPARATED_HEX.test(trimmed)) return null;
  return digits.toUpperCase();
}

/**
 * The text to send as a name-or-MAC search: a MAC (or part of one) written with separators becomes its digits, so
 * `64:7F:DA:FF:FE:00:1C:AD` finds the gateway stored as `647FDAFFFE001CAD`; anything else is sent as typed
 * (trimmed). Text without separators is left alone: the server's search ignores case.
 */
export function toGatewaySearchText(text: string): string {
  const trimmed = text.trim();
  const mac = normalizeMac(trimmed);
  return mac !== null && mac.length !== trimmed.length ? mac : trimmed;
}

/**
 * A MAC as a person reads it: whole, upper case, in colon-separated pairs (`64:7F:DA:FF:FE:00:1C:AD`). A value
 * that is not a whole EUI-48 or EUI-64 is returned unchanged rather than guessed at.
 */
export function formatMac(mac: string): string {
  const digits = normalizeMac(mac);
  if (digits === null || !WHOLE_MAC_DIGITS.has(digits.length)) return mac;
  return digits.match(/../g)!.join(':');
}

/** True when two MACs (in any of the forms above) are the same address. */
export function isSameMac(left: string, right: string): boolean {
  const a = normalizeMac(left);
  return a !== null && a === normalizeMac(right);
}
