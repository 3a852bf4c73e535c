import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ServerSessionFacts, ServerSessionPort } from '../../../electron/app';
import {
  ServerSessionController,
  type ServerSessionAccount,
  type ServerSessionEndReason,
} from '../../../electron/app/server-session-controller';
import { MemoryStore } from '../../../electron/services/credentials';
import { ProfileStore } from '../../../electron/services/profiles';
import { EventHub } from '../../../electron/shared/ipc/event-hub';

// When a server session ends (sign-out, expiry, another account's sign-in) the controller lets the app stop what
// depends on it — reverse-SSH tunnels — while the session can still be used; and says when an account starts.

/** A session double that signs anyone in and can be made to expire. */
class FakeSession implements ServerSessionPort {
  /** While set, a sign-in waits for it (a server that answers slowly). */
  static answered: Promise<void> | undefined;
  current: ServerSessionFacts | null = null;
  listeners = new Set<() => void>();
  async login(username: string) {
    await FakeSession.answered;
    this.current = { username, userId: username, role: 'CUSTOMER_USER', accessExpiresAt: 0, state: 'active' };
  }
  async resume() {}
  async logout() {
    this.current = null;
  }
  async call(): Promise<never> {
    throw new Error('not used');
  }
  async sendGatewayCommand(): Promise<never> {
    throw new Error('not used');
  }
  facts() {
    return this.current;
  }
  refreshToken() {
    return null;
  }
  onChange(listener: () => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  dispose() {
    this.listeners.clear();
  }
  expire() {
    if (this.current) this.current = { ...this.current, state: 'expired' };
    for (const listener of [...this.listeners]) listener();
  }
}

type Heard =
  | { hook: 'ending'; account: ServerSessionAccount; reason: ServerSessionEndReason; sessionUsable: boolean }
  | { hook: 'started'; account: ServerSessionAccount };

let folder: string;
let heard: Heard[];
let sessions: FakeSession[];
let controller: ServerSessionController;
let profileId: string;
let profiles: ProfileStore;

beforeEach(async () => {
  FakeSession.answered = undefined;
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-session-controller-'));
  heard = [];
  sessions = [];
  profiles = new ProfileStore({ folder });
  await profiles.load();
  profileId = (await profiles.save({ name: 'Lab', baseUrl: 'https://oam.example.com' })).id;
  controller = new ServerSessionController({
    profiles,
    credentials: new MemoryStore(),
    events: new EventHub(),
    createSession: () => {
      const session = new FakeSession();
      sessions.push(session);
      return session;
    },
    onNotice: () => undefined,
    onSessionEnding: async (account, reason) => {
      let sessionUsable = true;
      try {
        controller.requireSession();
      } catch {
        sessionUsable = false;
      }
      heard.push({ hook: 'ending', account, reason, sessionUsable });
    },
    onSessionStarted: async (account) => void heard.push({ hook: 'started', account }),
  });
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

function signIn(username: string) {
  return controller.login({ profileId, username, password: 'pw', remember: 'none' });
}

describe('ServerSessionController and the profile', () => {
  it('keeps an edit made to the profile while its sign-in was under way, and remembers the user', async () => {
    let answer = () => undefined as void;
    FakeSession.answered = new Promise<void>((resolve) => (answer = resolve));
    const signingIn = signIn('tech@acme.demo');
    await profiles.save({ ...profiles.get(profileId), name: 'Roof 12' });
    answer();
    await signingIn;
    expect(profiles.get(profileId)).toMatchObject({ name: 'Roof 12', username: 'tech@acme.demo' });
  });
});

describe('ServerSessionController and the end of a session', () => {
  it('says an account started, then that it ends at sign-out while its session still works', async () => {
    await signIn('tech@acme.demo');
    await controller.logout();
    const tech = { profileId, username: 'tech@acme.demo' };
    expect(heard).toEqual([
      { hook: 'started', account: tech },
      { hook: 'ending', account: tech, reason: 'sign-out', sessionUsable: true },
    ]);
  });

  it("ends the previous account's session when another account signs in, before letting it go", async () => {
    await signIn('tech@acme.demo');
    await signIn('ops@globex.demo');
    expect(heard.slice(1)).toEqual([
      {
        hook: 'ending',
        account: { profileId, username: 'tech@acme.demo' },
        reason: 'replaced',
        sessionUsable: true,
      },
      { hook: 'started', account: { profileId, username: 'ops@globex.demo' } },
    ]);
  });

  it('does not end anything when the same account signs in again', async () => {
    await signIn('tech@acme.demo');
    await signIn('tech@acme.demo');
    expect(heard.map((entry) => entry.hook)).toEqual(['started', 'started']);
  });

  it('says the session ended once when it expires', async () => {
    await signIn('tech@acme.demo');
    sessions[0]!.expire();
    sessions[0]!.expire();
    await expect.poll(() => heard.length).toBe(2);
    expect(heard[1]).toMatchObject({ hook: 'ending', reason: 'expired' });
    expect(heard.filter((entry) => entry.hook === 'ending')).toHaveLength(1);
  });
});
