import { isMessageKey, t, type MessageKey, type Translator } from '../i18n';
import { gatewayCommands, isCommandName, type CommandName } from './commands';

/**
 * The catalogue stem of a command's words: `getWmPDP_Profiles` → `GetWmPDPProfiles`, read as
 * `commands:title<stem>`, `commands:summary<stem>` and (disruptive commands) `commands:consequence<stem>`.
 */
function stemOf(name: CommandName): string {
  const joined = name.replace(/_/g, '');
  return joined.charAt(0).toUpperCase() + joined.slice(1);
}

function wordsOf(prefix: 'title' | 'summary' | 'consequence', name: CommandName, translate: Translator) {
  const key = `commands:${prefix}${stemOf(name)}`;
  return isMessageKey(key) ? translate(key) : undefined;
}

/**
 * What a gateway command does, in the technician's words ("Restart the gateway" for `reboot`), in the language of
 * `translate` (the screen's by default). The console lists commands by it, the API name beside it as a hint; a
 * command without a title (none today: a unit test checks every one) falls back to its API name.
 */
export function commandTitle(name: CommandName, translate: Translator = t): string {
  return wordsOf('title', name, translate) ?? name;
}

/** One line a technician reads before running the command ("Ping a host from the gateway."). */
export function commandSummary(name: CommandName, translate: Translator = t): string {
  return wordsOf('summary', name, translate) ?? commandTitle(name, translate);
}

/**
 * What a disruptive command will do, said before asking for confirmation ("The gateway restarts and is offline
 * for a few minutes…"); a disruptive command without its own words gets "“<title>” can disrupt the gateway.".
 * Undefined for a command that is not disruptive.
 */
export function commandConsequence(name: CommandName, translate: Translator = t): string | undefined {
  if (gatewayCommands[name].risk !== 'disruptive') return undefined;
  return (
    wordsOf('consequence', name, translate) ??
    translate('commands:consequenceOther', { title: commandTitle(name, translate) })
  );
}

/**
 * Whether a command matches what was typed in the console's filter: by its title, its API name or its summary
 * (title and summary in the language on screen), ignoring case, so `pdp`, `getWmPDP` and "profiles" all find
 * "Read PDP profiles".
 */
export function matchesCommandFilter(
  command: { name: string; summary: string },
  title: string,
  filter: string,
): boolean {
  const wanted = filter.trim().toLocaleLowerCase();
  if (wanted === '') return true;
  return [title, command.name, command.summary].some((text) => text.toLocaleLowerCase().includes(wanted));
}

const NEEDED_BSP = /needs\s+BSP\s+v?(\d+(?:\.\d+)+)/i;
const RUNNING_BSP = /runs\s+BSP\s+v?(\d+(?:\.\d+)+)/i;

/** Commands with words of their own for "needs gateway software (BSP) x or later". */
const BSP_NEEDED_KEYS: Partial<Record<CommandName, MessageKey>> = {
  getWmNetworkInfo: 'commands:bspNeededGetWmNetworkInfo',
  setWmPreferredNetwork: 'commands:bspNeededSetWmPreferredNetwork',
};

/**
 * A gateway's refusal of a command its software (BSP) is too old for, in words: "Listing cellular networks needs
 * gateway software (BSP) 6.0.2 or later. This gateway runs BSP 5.0.6: upgrade its software first." for the
 * server's "getWmNetworkInfo needs BSP 6.0.2; gateway gw-1 runs BSP 5.0.6 — upgrade it first". The versions are
 * read from the server's message (the API does not name them otherwise); a refusal of a newest-BSP-only command
 * that names no version says "the newest gateway software". Undefined when the refusal is about something else:
 * the caller then shows the server's message as it is. The API name stays out of the sentence (the caller may
 * show it as a hint).
 */
export function bspRequirement(
  name: string,
  serverMessage: string,
  translate: Translator = t,
): string | undefined {
  if (!isCommandName(name)) return undefined;
  const needed = NEEDED_BSP.exec(serverMessage)?.[1];
  const definition = gatewayCommands[name];
  const isNewestOnly = 'newestBspOnly' in definition && definition.newestBspOnly === true;
  if (needed === undefined && !(isNewestOnly && /\bBSP\b/i.test(serverMessage))) return undefined;
  const title = commandTitle(name, translate);
  const ownKey = BSP_NEEDED_KEYS[name];
  const requirement =
    needed === undefined
      ? translate('commands:bspNeededNewest', { title })
      : ownKey
        ? translate(ownKey, { version: needed })
        : translate('commands:bspNeededOther', { title, version: needed });
  const running = RUNNING_BSP.exec(serverMessage)?.[1];
  return running === undefined
    ? requirement
    : `${requirement} ${translate('commands:bspRunning', { version: running })}`;
}
