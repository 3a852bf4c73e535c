/** Default time limit of one request to the server (the API client's; the login screen says it while it waits). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
