import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One figure a benchmark reports (docs/benchmarks.md): its value, unit and the target its issue names. */
export interface BenchFigure {
  name: string;
  value: number;
  unit: string;
  target?: string;
  /** A line of context: what was measured against what. */
  note?: string;
}

/** True when `value` meets a target written as `<= 1.15`, `>= 0.5`, `< 3`, `> 1` or `= 1`. */
export function meetsTarget(value: number, target: string | undefined): boolean | undefined {
  const match = target?.match(/^\s*(<=|>=|<|>|=)\s*(-?[\d.]+)\s*$/);
  if (!match) return undefined;
  const bound = Number(match[2]);
  switch (match[1]) {
    case '<=':
      return value <= bound;
    case '>=':
      return value >= bound;
    case '<':
      return value < bound;
    case '>':
      return value > bound;
    default:
      return Math.abs(value - bound) < 1e-9;
  }
}

/** Prints the figures as a table and writes `bench-results/<suite>.json`. */
export function reportFigures(suite: string, figures: BenchFigure[], root = process.cwd()): string {
  const rows = figures.map((figure) => {
    const met = meetsTarget(figure.value, figure.target);
    return [
      figure.name,
      `${Number.isInteger(figure.value) ? figure.value : figure.value.toFixed(3)} ${figure.unit}`,
      figure.target ?? '',
      met === undefined ? '' : met ? 'met' : 'MISSED',
      figure.note ?? '',
    ];
  });
  const header = ['figure', 'value', 'target', '', 'note'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  console.log(`\nbenchmark: ${suite}`);
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));

  const folder = join(root, 'bench-results');
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${suite}.json`);
  const json = figures.map(({ name, value, unit, target }) => ({
    name,
    value,
    unit,
    ...(target ? { target } : {}),
  }));
  writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\nwritten: ${file}`);
  return file;
}
