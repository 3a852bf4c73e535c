import type { Fetch } from '../../electron/services/api';

/** A request as the fake server saw it. */
export interface RecordedRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/**
 * A fetch that records each request and answers with `respond` — for unit tests of what the client puts on
 * the wire. Integration tests use the real simulator instead.
 */
export function recordingFetch(
  respond: (request: RecordedRequest) => Response | Promise<Response> = () => jsonResponse({}),
) {
  const requests: RecordedRequest[] = [];
  const fetch: Fetch = async (url, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => (headers[key] = value));
    const request = { url, method: init.method ?? 'GET', headers, body: init.body as string | undefined };
    requests.push(request);
    init.signal?.throwIfAborted();
    return respond(request);
  };
  return { fetch, requests };
}

/** A JSON response with the given status. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
