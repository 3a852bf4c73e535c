import type { TerminalInfo } from '../../../../electron/shared/terminal/terminal-schemas';
import { t, type MessageKey } from '../../lib/i18n';

/** How a terminal is named in the sign-out question: "reverse SSH to acme-gw-0013", "serial /dev/ttyUSB0". */
export function describeTerminal(session: TerminalInfo): string {
  if (session.kind === 'serial') return t('terminals:signOutSerial', { path: session.path ?? session.title });
  const isReverse = session.route === 'reverse';
  // The title is "<gateway name> (reverse SSH) · <MAC>" or "<name> (SSH) · <MAC>" when the gateway was named, in
  // the language of the moment it opened (every language's brackets say SSH).
  const name = session.title.split(' · ')[0]!.replace(/ \([^()]*SSH[^()]*\)$/, '');
  return t(isReverse ? 'terminals:signOutReverse' : 'terminals:signOutSsh', { name });
}

/** What signing out does when both kinds are open, by [reverse ones are several][others are several]. */
const MIXED: Record<'one' | 'many', Record<'one' | 'many', MessageKey>> = {
  one: { one: 'terminals:signOutMixedOneOne', many: 'terminals:signOutMixedOneMany' },
  many: { one: 'terminals:signOutMixedManyOne', many: 'terminals:signOutMixedManyMany' },
};

/**
 * What signing out does to the terminals still open, said before it happens; null when none is open. Reverse SSH
 * needs the signed-in account (its tunnel goes through the server), so sign-out closes it; serial and direct SSH
 * do not, so they stay, until a different account signs in (main then closes them too).
 */
export function describeSignOut(sessions: readonly TerminalInfo[]): string | null {
  const open = sessions.filter((session) => session.state !== 'closed');
  if (open.length === 0) return null;
  const reverse = open.filter((session) => session.route === 'reverse').length;
  const others = open.length - reverse;
  const listed = t('terminals:signOutOpen', {
    count: open.length,
    list: open.map(describeTerminal).join(', '),
  });
  let outcome: string;
  if (others === 0) outcome = t('terminals:signOutReverseOnly', { count: reverse });
  else if (reverse === 0) outcome = t('terminals:signOutOthersStay', { count: others });
  else outcome = t(MIXED[reverse === 1 ? 'one' : 'many'][others === 1 ? 'one' : 'many']);
  return `${listed} ${outcome}`;
}
