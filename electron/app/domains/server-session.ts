import type { RootPasswords } from '../../services/terminals/terminal-secrets';
import type { ServerReachability } from '../server-reachability';
import type { ServerSessionController } from '../server-session-controller';
import type { ChannelHandlers } from './context';

/** What the sign-in channels use: the session controller, the server's reachability and the root passwords. */
export interface ServerSessionDependencies {
  sessions: Pick<ServerSessionController, 'login' | 'summary' | 'logout'>;
  reachability: Pick<ServerReachability, 'noteSignedIn' | 'resume' | 'checkNow'>;
  rootPasswords: Pick<RootPasswords, 'forgetProfile'>;
}

/**
 * Handlers of the server sign-in channels (`session:*`, `server:check` in contract.ts). Signing in tells the watch
 * the server answers (it goes on checking at the answering interval); resuming starts it when the server cannot be
 * reached.
 */
export function createServerSessionHandlers({
  sessions,
  reachability,
  rootPasswords,
}: ServerSessionDependencies): ChannelHandlers<
  'session:login' | 'session:resume' | 'session:get' | 'server:check' | 'session:logout'
> {
  return {
    'session:login': async (input) => {
      const summary = await sessions.login(input);
      reachability.noteSignedIn();
      return summary;
    },
    'session:resume': ({ profileId }) => reachability.resume(profileId),
    'session:get': () => sessions.summary(),
    'server:check': () => reachability.checkNow(),
    'session:logout': async ({ forgetPasswords }) => {
      const profileId = sessions.summary()?.profileId;
      await sessions.logout();
      if (forgetPasswords && profileId) await rootPasswords.forgetProfile(profileId);
      return null;
    },
  };
}
