import type { TerminalStateName } from '../../../../electron/shared/terminal/terminal-schemas';
import { formatClockTime } from '../../../../electron/shared/terminal/clock-time';
import { t } from '../../lib/i18n';

/**
 * The dim line a terminal shows when its session's connection changes, as PuTTY and Tabby do ("— disconnected:
 * adapter unplugged 10:42:03 —", "— reconnected 10:42:05 —"), or undefined when the change is not one: a session
 * that leaves `open` was disconnected, one that comes back to `open` after having been open was reconnected (the
 * first open says nothing: the output shows it). Ends with a line break; starts with one unless `isAtLineStart`.
 */
export function describeConnectionChange(change: {
  from: TerminalStateName;
  to: TerminalStateName;
  wasOpenBefore: boolean;
  reason: string | undefined;
  at: number;
  isAtLineStart: boolean;
}): string | undefined {
  const time = formatClockTime(new Date(change.at), false);
  let text: string | undefined;
  if (change.from === 'open' && change.to !== 'open') {
    const reason = plainReason(change.reason);
    text = reason
      ? t('terminals:lineDisconnectedBecause', { reason, time })
      : t('terminals:lineDisconnected', { time });
  } else if (change.to === 'open' && change.from !== 'open' && change.wasOpenBefore)
    text = t('terminals:lineReconnected', { time });
  if (!text) return undefined;
  return `${change.isAtLineStart ? '' : '\r\n'}\x1b[2m${text}\x1b[22m\r\n`;
}

/**
 * A state's reason as the middle of the line: its first sentence, on one line, without "Disconnected:" twice (in
 * English or in the language shown: main writes the reason in it) or the technical detail in closing brackets
 * (the status bar keeps the whole reason).
 */
function plainReason(reason: string | undefined): string {
  const word = t('terminals:stateFailed').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return (reason ?? '')
    .replace(/[\r\n]+/g, ' ')
    .replace(new RegExp(`^(?:disconnected|${word})\\s*:\\s*`, 'i'), '')
    .split(/\.(?:\s|$)/)[0]!
    .replace(/\s*\(.*\)$/, '')
    .trim();
}
