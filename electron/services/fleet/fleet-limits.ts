import type { FleetChange } from './fleet-changes';

/** Gateways worked on at once by default. */
export const FLEET_CONCURRENCY = 16;
/** A change that restarts gateways goes to at most one in this many of them at once by default (docs/safety.md). */
export const RESTARTING_FLEET_SHARE = 4;

/**
 * Gateways worked on at once when the technician does not say: FLEET_CONCURRENCY, but a software upgrade (which
 * restarts each gateway for minutes) goes to a quarter of the reachable gateways at a time, at least one, so
 * the rest of the site keeps forwarding while each round restarts.
 */
export function defaultFleetConcurrency(change: FleetChange, reachableCount: number): number {
  if (change.kind !== 'softwareUpgrade') return FLEET_CONCURRENCY;
  return Math.max(1, Math.min(FLEET_CONCURRENCY, Math.ceil(reachableCount / RESTARTING_FLEET_SHARE)));
}
/** Attempts per gateway by default (the first plus retries) for transient failures. */
export const FLEET_MAX_ATTEMPTS = 4;
/** Attempts for a gateway that does not answer at all (each costs a whole command timeout). */
export const FLEET_OFFLINE_ATTEMPTS = 2;
/** First pause before a retry; doubles each time, with jitter. */
export const FLEET_RETRY_DELAY_MS = 250;
/** Longest pause before a retry. */
export const FLEET_RETRY_MAX_DELAY_MS = 5_000;
