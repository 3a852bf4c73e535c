/** Default time limit of one request to the server (the API client's; the login screen says it while it waits). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * The wait between two quiet checks of an unreachable server. Fixed, with no backoff: the app must notice a
 * server that answers again within 15 s (issue 29), and a check is one bare request, no sign-in traffic.
 */
export const SERVER_CHECK_INTERVAL_MS = 10_000;
