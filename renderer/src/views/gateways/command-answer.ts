/** A command answer laid out as a table: column names and rows of cell texts. */
export interface AnswerTable {
  columns: string[];
  rows: string[][];
}

/** The heading of the field column of an object answer (the console writes it in words). */
export const ANSWER_FIELD = 'Field';
/** The heading of the value column of an object or single-value answer (the console writes it in words). */
export const ANSWER_VALUE = 'Value';

/** True for an answer that carries nothing to show: no body, null, an empty object, array or text. */
export function isEmptyAnswer(answer: unknown): boolean {
  if (answer === undefined || answer === null || answer === '') return true;
  if (Array.isArray(answer)) return answer.length === 0;
  return isRecord(answer) && Object.keys(answer).length === 0;
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * Lays out an answer of known shape: an array of objects becomes one row per item with a column per key; an
 * object becomes field/value rows (nested objects as `parent.child`); anything else one value row.
 */
export function tabulateAnswer(answer: unknown): AnswerTable {
  if (Array.isArray(answer)) {
    const columns = [...new Set(answer.flatMap((item) => (isRecord(item) ? Object.keys(item) : ['value'])))];
    return {
      columns,
      rows: answer.map((item) =>
        columns.map((column) =>
          cellText(isRecord(item) ? item[column] : column === 'value' ? item : undefined),
        ),
      ),
    };
  }
  if (isRecord(answer)) {
    const rows: string[][] = [];
    flatten(answer, '', rows, 0);
    return { columns: [ANSWER_FIELD, ANSWER_VALUE], rows };
  }
  return { columns: [ANSWER_VALUE], rows: [[cellText(answer)]] };
}

function flatten(record: Record<string, unknown>, prefix: string, rows: string[][], depth: number): void {
  for (const [key, value] of Object.entries(record)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isRecord(value) && depth < 3) flatten(value, name, rows, depth + 1);
    else if (Array.isArray(value) && value.every(isRecord) && value.length > 0 && depth < 3) {
      value.forEach((item, index) => flatten(item, `${name}[${index}]`, rows, depth + 1));
    } else rows.push([name, cellText(value)]);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
