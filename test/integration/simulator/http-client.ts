import type { RunningSimulator } from '../../../simulator';

/** A raw HTTP answer: status and parsed JSON body. */
export interface RawAnswer<Body = unknown> {
  status: number;
  body: Body;
}

/** Raw fetch against the simulator (no typed client), so tests see exactly what goes over the wire. */
export function rawClient(simulator: RunningSimulator) {
  const request = async <Body = unknown>(
    method: 'GET' | 'POST',
    path: string,
    options: { token?: string; body?: string; contentType?: string; headers?: Record<string, string> } = {},
  ): Promise<RawAnswer<Body>> => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers['X-Authorization'] = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
    const response = await fetch(`${simulator.url}${path}`, { method, headers, body: options.body });
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as Body };
  };
  return {
    request,
    get: <Body = unknown>(path: string, token?: string) => request<Body>('GET', path, { token }),
    post: <Body = unknown>(path: string, body: unknown, token?: string) =>
      request<Body>('POST', path, { token, body: typeof body === 'string' ? body : JSON.stringify(body) }),
    /** Logs in with the auth call's text/plain JSON body and returns the token pair. */
    login: async (username: string, password: string) => {
      const answer = await request<{ token: string; refreshToken: string }>('POST', '/api/auth/login', {
        body: JSON.stringify({ username, password }),
        contentType: 'text/plain',
      });
      if (answer.status !== 200)
        throw new Error(`login failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
  };
}
