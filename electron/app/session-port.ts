import type { CommandName, CommandRequest, CommandResponse } from '../shared/api/commands';
import type { EndpointName, EndpointRequest, EndpointResponse } from '../shared/api/endpoints';
import type { SessionSummary } from '../shared/ipc/schemas';

/** The session facts the app needs from the session service, minus what the profile adds (its id and name). */
export type SessionFacts = Omit<SessionSummary, 'profileId' | 'profileName'>;

/**
 * What the shell needs from one authenticated session with a server (implemented over
 * `electron/services/session`'s Session; faked in unit tests). Secrets never leave it except the refresh
 * token, which goes only to the credential store.
 */
export interface SessionPort {
  login(username: string, password: string): Promise<void>;
  resume(refreshToken: string): Promise<void>;
  logout(): Promise<void>;
  /**
   * Calls an endpoint of the table; the request and the answer are typed (and validated) from its schemas. Once
   * `signal` fires the request is cancelled.
   */
  call<Name extends EndpointName>(
    endpoint: Name,
    request: EndpointRequest<Name>,
    options?: { signal?: AbortSignal },
  ): Promise<EndpointResponse<Name>>;
  /** Runs a gateway command of the catalogue; the body and the answer are typed from its schemas. */
  command<Name extends CommandName>(
    gatewayId: string,
    command: Name,
    body?: CommandRequest<Name>,
  ): Promise<CommandResponse<Name>>;
  /** The current facts, or null before login / after logout. */
  facts(): SessionFacts | null;
  /** The current refresh token (rotates on every refresh), or null. */
  refreshToken(): string | null;
  /** Called on every change of the facts (refresh started/ended, expiry) and every token rotation. */
  onChange(listener: () => void): () => void;
  /** Releases timers; the session is unusable afterwards. */
  dispose(): void;
}

/** Builds a session for one server: its base URL and the fetch that verifies its certificate. */
export type SessionFactory = (options: { baseUrl: string; fetch: typeof fetch }) => SessionPort;
