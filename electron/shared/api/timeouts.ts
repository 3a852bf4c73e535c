/**
 * The time limit of each kind of call to the server, in one table: the limit is handed with the call down to
 * `fetch`, and the request is aborted on the wire when it passes. `request`: an endpoint call (the login screen
 * says it while it waits). `command`: a gateway command; the server answers 408 itself after its own wait for the
 * gateway (DEFAULT_COMMAND_TIMEOUT_MS, 10 s), so this is the bound on a server that does not answer at all.
 * `rfMeterRead`: one read of the RF meter, which samples every few seconds and skips a late one.
 * `serverProbe`: the check that a server is back, which must fail fast.
 */
export const CALL_TIME_LIMITS_MS = {
  request: 30_000,
  command: 45_000,
  rfMeterRead: 8_000,
  serverProbe: 5_000,
} as const;

/** A kind of call with its own time limit (CALL_TIME_LIMITS_MS). */
export type CallKind = keyof typeof CALL_TIME_LIMITS_MS;

/** Default time limit of one request to the server (the API client's; the login screen says it while it waits). */
export const DEFAULT_REQUEST_TIMEOUT_MS = CALL_TIME_LIMITS_MS.request;
/**
 * The wait between two quiet checks of an unreachable server. Fixed, with no backoff: the app must notice a
 * server that answers again within 15 s (issue 29), and a check is one bare request, no sign-in traffic.
 */
export const SERVER_CHECK_INTERVAL_MS = 10_000;
/**
 * The wait between two quiet checks while the server answers: a view that sends no requests still learns within
 * this time that the server went away (a failed request says so at once). Slower than SERVER_CHECK_INTERVAL_MS,
 * since the server is expected to stay.
 */
export const SERVER_ANSWERING_CHECK_INTERVAL_MS = 15_000;
