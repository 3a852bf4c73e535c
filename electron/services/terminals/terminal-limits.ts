import { t } from '../../shared/i18n';

/**
 * The most terminals open at once, serial, reverse and direct SSH together (opens still under way count): each
 * holds a tunnel on the server's relay or a port, a session log and a screen in the page; a technician works in a
 * few. Past it an open is refused with tooManyTerminalsMessage() before anything is asked of the relay or port.
 */
export const MAX_TERMINALS = 16;

/** What an open past MAX_TERMINALS answers, in the language shown now. */
export function tooManyTerminalsMessage(): string {
  return t('terminals:tooManyTerminals', { count: MAX_TERMINALS });
}

/** An open was refused because MAX_TERMINALS are open (or opening) already. */
export class TooManyTerminalsError extends Error {
  override readonly name = 'TooManyTerminalsError';
}

/** No open session has this id (closed already, or never opened). */
export class TerminalNotFoundError extends Error {
  override readonly name = 'TerminalNotFoundError';
}

/** Serial triage needs the gateway's root password: none is stored, or the gateway refused it. */
export class TriagePasswordError extends Error {
  override readonly name = 'TriagePasswordError';
}

/** Serial triage is already running on this console. */
export class TriageBusyError extends Error {
  override readonly name = 'TriageBusyError';
}

/** The operation needs a serial session (break, DTR/RTS, paste with delay). */
export class NotSerialSessionError extends Error {
  override readonly name = 'NotSerialSessionError';
}
