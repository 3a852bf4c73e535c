// Part of benchmark suite `hardening` (issue 28): the serial triage's parsers on hostile console output. Each
// figure is the median of ROUNDS runs of every parser (through assessHealth, as a triage reads a gateway) on one
// 512 KiB output; before the parsers were made linear, 512 KiB of digits held the main process 91 s.
import { assessHealth } from '../../electron/shared/terminal/triage-health';
import { readingsWithOutput } from '../helpers/triage-readings';
import type { BenchFigure } from './report';

const HALF_MEGABYTE = 512 * 1024;
const ROUNDS = 5;

/** Outputs that made a regex try a long run from each of its characters. */
const HOSTILE_OUTPUTS: Record<string, string> = {
  digits: '7'.repeat(HALF_MEGABYTE),
  'carriage-returns': `a${'\r'.repeat(HALF_MEGABYTE)}b`,
  'spaced-modem-value': `| state: x${' '.repeat(HALF_MEGABYTE)}x`,
  'up-words': 'up '.repeat(HALF_MEGABYTE / 3),
};

/** Times assessHealth on each hostile output; one figure per output, the target the "bounded work". */
export async function runParserBench(): Promise<BenchFigure[]> {
  return Object.entries(HOSTILE_OUTPUTS).map(([name, output]) => {
    const readings = readingsWithOutput(output);
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const startedAt = performance.now();
      assessHealth(readings);
      times.push(performance.now() - startedAt);
    }
    times.sort((left, right) => left - right);
    return {
      name: `triage-parse-512k-${name}-ms`,
      value: Math.round(times[Math.floor(ROUNDS / 2)]!),
      unit: 'ms',
      target: '< 500',
      note: `median of ${ROUNDS}: all nine triage readings parsed from the same 512 KiB output`,
    };
  });
}
