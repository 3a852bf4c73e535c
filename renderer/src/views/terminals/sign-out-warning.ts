import type { TerminalInfo } from '../../../../electron/shared/terminal/terminal-schemas';

/** How a terminal is named in the sign-out question: "reverse SSH to acme-gw-0013", "serial /dev/ttyUSB0". */
export function describeTerminal(session: TerminalInfo): string {
  if (session.kind === 'serial') return `serial ${session.path ?? session.title}`;
  const isReverse = session.route === 'reverse';
  // The title is "<gateway name> (reverse SSH) · <MAC>" or "<name> (SSH) · <MAC>" when the gateway was named.
  const name = session.title.split(' · ')[0]!.replace(/ \((reverse )?SSH\)$/, '');
  return `${isReverse ? 'reverse SSH' : 'SSH'} to ${name}`;
}

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
  const listed = `${open.length === 1 ? '1 terminal is' : `${open.length} terminals are`} open: ${open.map(describeTerminal).join(', ')}.`;
  if (others === 0)
    return `${listed} Signing out closes ${reverse === 1 ? 'it' : 'them'}: reverse SSH needs a signed-in account.`;
  const them = others === 1 ? 'it' : 'them';
  const until = `open for work without the server, until a different account signs in (that closes ${them} too).`;
  if (reverse === 0) return `${listed} ${others === 1 ? 'It stays' : 'They stay'} ${until}`;
  const rest = others === 1 ? 'the other one stays' : 'the others stay';
  return `${listed} Signing out closes the reverse SSH ${reverse === 1 ? 'one' : 'ones'}; ${rest} ${until}`;
}
