import { CALL_TIME_LIMITS_MS, SERVER_ANSWERING_CHECK_INTERVAL_MS } from '../shared/api/timeouts';
import type { Clock } from '../shared/clock';
import type { ServerStatus } from '../shared/ipc/contract';
import type { EventHub } from '../shared/ipc/event-hub';
import type { Profile } from '../shared/ipc/schemas';
import { createServerFetch, isServerOutOfReach, TimeoutError } from '../services/api';
import { findCause, mapServiceError } from './error-mapping';
import { ServerWatch, type ServerCheckOutcome } from './server-watch';
import type { ServerSessionController } from './server-session-controller';
import type { ProfileReader } from './domains/context';

/** Error codes that mean the server could not be reached (as opposed to refusing what was remembered). */
const UNREACHABLE_CODES = new Set(['NETWORK', 'TIMEOUT']);

/** True when `error` says the server could not be reached. */
export function isUnreachable(error: unknown): boolean {
  return UNREACHABLE_CODES.has(mapServiceError(error)?.code ?? '');
}

/** What the reachability of the server is worked out from. */
export interface ServerReachabilityOptions {
  sessions: Pick<ServerSessionController, 'summary' | 'resume'>;
  profiles: ProfileReader;
  events: Pick<EventHub, 'emit'>;
  log: { info(message: string): void };
  /** Builds the fetch for a profile (default: certificate-verifying, honouring its pin). */
  createFetch?: (profile: Profile) => typeof fetch;
  /** The wait between quiet checks of an unreachable server (default 10 s; tests shorten it). */
  intervalMs?: number;
  /** The wait between quiet checks while the server answers (default 15 s). */
  answeringIntervalMs?: number;
  /** When each status was found, and the timers and time of the watch (the app's Clock). */
  clock: Pick<Clock, 'now' | 'setTimeout' | 'clearTimeout'>;
}

/**
 * Whether the selected profile's server answers: a `ServerWatch` of quiet checks (a bare request to the server's
 * address, then the remembered session resumed once it answers) every 10 s while it is away and every 15 s while
 * it answers, so that a view sending no requests still learns it went away; every request of the session tells
 * the watch too (`observe`): one that cannot connect says at once that the server does not answer, one answered
 * while it was away says it is back. A change of outcome, and each check that finds it away (its time is shown),
 * is pushed as `server:status` and kept as the last status.
 */
export class ServerReachability {
  /** The quiet checks of the server while it is away. */
  readonly watch: ServerWatch;
  private lastStatus: ServerStatus | null = null;

  constructor(private readonly options: ServerReachabilityOptions) {
    this.watch = new ServerWatch({
      check: () => this.check(),
      onOutcome: (outcome) => this.report(outcome),
      intervalMs: options.intervalMs,
      answeringIntervalMs: options.answeringIntervalMs ?? SERVER_ANSWERING_CHECK_INTERVAL_MS,
      clock: options.clock,
    });
  }

  /** Checks the server at once; what the check found (null when there is no profile or nothing reported yet). */
  async checkNow(): Promise<ServerStatus | null> {
    await this.watch.checkNow();
    return this.lastStatus;
  }

  /**
   * Starts watching the server when `error` says it cannot be reached (a read failed mid-session), and rethrows it.
   * A request the server did not answer in time is followed by a check at once, which says whether it is there.
   */
  watchIfUnreachable(error: unknown): never {
    if (findCause(error, TimeoutError)) void this.watch.checkNow();
    else if (isUnreachable(error)) this.watch.start();
    throw error;
  }

  /**
   * Wraps a session's fetch so that each of its requests tells the watch what it found: a connection that could
   * not be made (refused, no name, no route, timed out) is the server not answering, said at once; any answer
   * while it was away is the server back. Aborted or cut requests tell nothing (the watch's checks will).
   */
  observe(serverFetch: typeof fetch): typeof fetch {
    return async (input, init) => {
      try {
        const response = await serverFetch(input, init);
        if (this.watch.outcome === 'unreachable') this.watch.learn(this.answeringOutcome());
        return response;
      } catch (error) {
        if (isServerOutOfReach(error) && this.watch.outcome !== 'unreachable')
          this.watch.learn('unreachable');
        throw error;
      }
    };
  }

  /** A session started (sign-in, resume): the server answers, and the watch goes on at the answering interval. */
  noteSignedIn(): void {
    this.watch.learn('resumed');
  }

  /** Resumes a remembered session; when the server cannot be reached (or nothing is remembered) starts watching it. */
  async resume(profileId: string) {
    try {
      const resumed = await this.options.sessions.resume(profileId);
      if (resumed) this.noteSignedIn();
      else this.watch.start();
      return resumed;
    } catch (error) {
      this.watchIfUnreachable(error);
    }
  }

  private selectedProfileId(): string | null {
    return this.options.sessions.summary()?.profileId ?? this.options.profiles.list().selectedId;
  }

  /**
   * One quiet check of the selected profile's server: first a bare request to its address (no sign-in traffic
   * while it is away), then, once it answers, the remembered session is resumed when there is one. Never throws;
   * a session already there counts as resumed once the server answers.
   */
  private async check(): Promise<ServerCheckOutcome> {
    const { sessions } = this.options;
    const profileId = this.selectedProfileId();
    if (!profileId) return 'unreachable';
    const wasAnswering = this.watch.outcome !== null && this.watch.outcome !== 'unreachable';
    if (!(await this.isServerAnswering(profileId))) return 'unreachable';
    // Resumed once, when it came back: checks while it goes on answering do not touch the keychain again.
    if (sessions.summary() || wasAnswering) return this.answeringOutcome();
    try {
      return (await sessions.resume(profileId)) ? 'resumed' : 'reachable';
    } catch (error) {
      return isUnreachable(error) ? 'unreachable' : 'reachable';
    }
  }

  /** True when the profile's server answers a HEAD of its address at all (any HTTP status, even an untrusted certificate). */
  private async isServerAnswering(profileId: string): Promise<boolean> {
    const profile = this.options.profiles.get(profileId);
    const probe =
      this.options.createFetch?.(profile) ??
      createServerFetch({ pinnedSha256: profile.trustedCertificateSha256 });
    try {
      await probe(profile.baseUrl, {
        method: 'HEAD',
        signal: AbortSignal.timeout(CALL_TIME_LIMITS_MS.serverProbe),
      });
      return true;
    } catch (error) {
      // An untrusted certificate is still a server answering: signing in will say what to do about it.
      return mapServiceError(error)?.code === 'CERTIFICATE_UNTRUSTED';
    }
  }

  /** What an answer from the server means now: the session is live ('resumed'), or nobody is signed in. */
  private answeringOutcome(): ServerCheckOutcome {
    return this.options.sessions.summary() ? 'resumed' : 'reachable';
  }

  private report(outcome: ServerCheckOutcome): void {
    const profileId = this.selectedProfileId();
    if (!profileId) return;
    const last = this.lastStatus;
    // A check that finds what the last one found says nothing new, unless the server is away (the time of the
    // last check is shown then).
    if (last?.profileId === profileId && last.outcome === outcome && outcome !== 'unreachable') return;
    this.options.log.info(`server check for ${profileId}: ${outcome}`);
    const status = { profileId, outcome, at: this.options.clock.now() };
    this.lastStatus = status;
    this.options.events.emit('server:status', status);
  }
}
