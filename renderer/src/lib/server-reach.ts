import { format } from '../../../electron/shared/format';
import { SERVER_CHECK_INTERVAL_MS } from '../../../electron/shared/api/timeouts';
import { t } from './i18n';
import type { EventPayload } from './wire-types';

/** What the app knows of whether the server answers, in the words the banner, the header and the sign-in dialog share. */
export interface ServerReach {
  /** True once the last check found the server answering. */
  isAnswering: boolean;
  /** The one line every place shows: "Demo server answers" / "Demo server does not answer". */
  headline: string;
  /** What it means and what happens next. */
  detail: string;
}

/**
 * Puts the last check of the server (`server:status`) into words, the one source of them: null before any check,
 * and null for a server that answers unless it just came back (`isBackNoticeShown`, a few seconds) or nobody is
 * signed in (then "Sign in for live data" is worth saying): "answers" is news, and old news would go untrue
 * unseen. The server is named by its profile's current name.
 */
export function describeServerReach(
  status: EventPayload<'server:status'> | null,
  profiles: ReadonlyArray<{ id: string; name: string }>,
  isSignedIn: boolean,
  isBackNoticeShown: boolean,
): ServerReach | null {
  if (!status) return null;
  const isOfferingSignIn = !isSignedIn && status.outcome === 'reachable';
  if (status.outcome !== 'unreachable' && !isBackNoticeShown && !isOfferingSignIn) return null;
  const profileName = profiles.find((profile) => profile.id === status.profileId)?.name;
  // A check reports only after the server was found away (or when asked): "resumed" is the server back with a
  // session, and every view reloads (App.svelte), which the line says.
  const answers = profileName ? t('app:reachNamedAnswers', { name: profileName }) : t('app:reachAnswers');
  if (status.outcome === 'resumed')
    return { isAnswering: true, headline: answers, detail: t('app:reachResumed') };
  if (status.outcome === 'reachable') {
    return {
      isAnswering: true,
      headline: answers,
      detail: isSignedIn ? t('app:reachLiveBack') : t('app:reachSignInForLive'),
    };
  }
  const checkedAt = format.time(status.at, { seconds: true });
  return {
    isAnswering: false,
    headline: profileName ? t('app:reachNamedSilent', { name: profileName }) : t('app:reachSilent'),
    detail: t(isSignedIn ? 'app:reachSilentSignedIn' : 'app:reachSilentFieldMode', {
      time: checkedAt,
      seconds: SERVER_CHECK_INTERVAL_MS / 1000,
    }),
  };
}
