import type { EndpointName, EndpointRequest, EndpointResponse } from '../shared/api/endpoints';
import type { SessionSummary } from '../shared/ipc/schemas';
import type { CommandCallOptions, GatewayCommander } from '../services/commands';
import type { Clock } from '../shared/clock';

/** The session facts the app needs from the session service, minus what the profile adds (its id and name). */
export type ServerSessionFacts = Omit<SessionSummary, 'profileId' | 'profileName'>;

/**
 * What the shell needs from one authenticated session with a server (implemented over
 * `electron/services/session`'s Session; faked in unit tests). Secrets never leave it except the refresh
 * token, which goes only to the credential store.
 */
export interface ServerSessionPort {
  login(username: string, password: string): Promise<void>;
  resume(refreshToken: string): Promise<void>;
  logout(): Promise<void>;
  /**
   * Calls an endpoint of the table; the request and the answer are typed (and validated) from its schemas. The
   * signal and time limit go with the request to `fetch`.
   */
  call<Name extends EndpointName>(
    endpoint: Name,
    request: EndpointRequest<Name>,
    options?: CommandCallOptions,
  ): Promise<EndpointResponse<Name>>;
  /**
   * The wire of gateway commands (signal and time limit reach `fetch`). Only a CommandService sends through it:
   * the app hands it to one as its transport, never calls it itself.
   */
  sendGatewayCommand: GatewayCommander['command'];
  /** The current facts, or null before login / after logout. */
  facts(): ServerSessionFacts | null;
  /** The current refresh token (rotates on every refresh), or null. */
  refreshToken(): string | null;
  /** Called on every change of the facts (refresh started/ended, expiry) and every token rotation. */
  onChange(listener: () => void): () => void;
  /** Releases timers; the session is unusable afterwards. */
  dispose(): void;
}

/**
 * Builds a session for one server: its base URL, the fetch that verifies its certificate, and the app's Clock
 * (the requests' time limits, the tokens' expiry; FieldKitServices adds it).
 */
export type ServerSessionFactory = (options: {
  baseUrl: string;
  fetch: typeof fetch;
  clock?: Clock;
}) => ServerSessionPort;
