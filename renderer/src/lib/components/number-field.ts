/**
 * Reads what was typed into a number field: `undefined` when empty (the field is left out), the number when the
 * text is one, NaN otherwise — so the schema reports "must be a whole number" instead of the value vanishing.
 */
export function parseNumberText(text: string): number | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(trimmed)) return Number.NaN;
  return Number(trimmed);
}

/** Writes a number (or nothing) back as field text. */
export function formatNumberText(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '' : String(value);
}
