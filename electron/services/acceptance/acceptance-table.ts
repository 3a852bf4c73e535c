import type { Band } from '../../shared/acceptance/acceptance-table';

// The table itself is shared (the Settings screen shows and checks it): electron/shared/acceptance.
export {
  AcceptanceOverrideSchema,
  DEFAULT_ACCEPTANCE_TABLE,
  resolveAcceptanceTable,
  type AcceptanceOverride,
  type AcceptanceTable,
  type Band,
} from '../../shared/acceptance/acceptance-table';

/** A measurement judged by a band: go at or above `go`, warn at or above `warn`, else no-go. */
export function judgeBand(value: number, band: Band): 'go' | 'warn' | 'no-go' {
  if (value >= band.go) return 'go';
  if (value >= band.warn) return 'warn';
  return 'no-go';
}

/** A "smaller is better" percentage judged: go at or below `go`, warn at or below `warn`, else no-go. */
export function judgeAtMost(value: number, limits: { go: number; warn: number }): 'go' | 'warn' | 'no-go' {
  if (value <= limits.go) return 'go';
  if (value <= limits.warn) return 'warn';
  return 'no-go';
}
