import { formatFraming } from '../../shared/terminal/serial-options';
import type { OpenDirectInput, OpenReverseInput, TerminalInfo } from '../../shared/terminal/terminal-schemas';
import { formatMac, normalizeMac } from '../../shared/mac';
import { t } from '../../shared/i18n';
import type { OutputCoalescer } from './output-coalescer';
import type {
  ResolvedRelay,
  SerialTerminal,
  SshTerminal,
  TerminalManagerDependencies,
} from './terminal-types';

/** A session the manager keeps: serial or SSH. */
export type ManagedTerminal = SerialTerminal | SshTerminal;

/** An open session as the manager keeps it: its output, its last reason, the account it was opened for. */
export interface Entry {
  session: ManagedTerminal;
  output: OutputCoalescer;
  reason: string | undefined;
  /** The account it was opened for (undefined: opened before anyone signed in). */
  account: string | undefined;
}

/** Something kept for the site report (a session log, a serial triage) and the account it was made for. */
export interface Owned<Item> {
  item: Item;
  account: string | undefined;
}

/** A tab's title with its gateway's MAC when known ("acme-gw-0001 (reverse SSH) · 64:7F:DA:…"). */
function describeGateway(title: string, mac: string | undefined): string {
  return mac ? `${title} · ${formatMac(mac)}` : title;
}

/** A gateway in a session log's file name: its name, and its MAC's digits when known (no `:` in file names). */
function logNameOf(name: string, mac: string | undefined): string {
  return mac ? `${name}_${normalizeMac(mac) ?? mac}` : name;
}

/** What the SSH service is asked for a reverse-SSH open: the tab's title and log name from the gateway's name and MAC. */
export function reverseRequest(
  input: OpenReverseInput,
  { relay, portRange }: ResolvedRelay,
): Parameters<TerminalManagerDependencies['ssh']['openReverse']>[0] {
  return {
    gatewayId: input.gatewayId,
    ...(input.gatewayName
      ? {
          title: describeGateway(t('terminals:titleReverse', { name: input.gatewayName }), input.gatewayMac),
          logName: logNameOf(input.gatewayName, input.gatewayMac),
        }
      : {}),
    relay,
    ...(portRange ? { portRange } : {}),
    ...(input.rootPassword ? { rootPassword: input.rootPassword } : {}),
    cols: input.cols,
    rows: input.rows,
    ...(input.timestamps ? { timestamps: true } : {}),
  };
}

/** What the SSH service is asked for a direct SSH open on the local network. */
export function directRequest(
  input: OpenDirectInput,
): Parameters<TerminalManagerDependencies['ssh']['openDirect']>[0] {
  return {
    host: input.host,
    port: input.port,
    username: input.username,
    password: input.password,
    ...(input.gatewayId ? { gatewayId: input.gatewayId } : {}),
    ...(input.gatewayName
      ? {
          title: describeGateway(t('terminals:titleDirect', { name: input.gatewayName }), input.gatewayMac),
          logName: logNameOf(input.gatewayName, input.gatewayMac),
        }
      : {}),
    cols: input.cols,
    rows: input.rows,
    ...(input.timestamps ? { timestamps: true } : {}),
  };
}

/** What the renderer is told of a session (`TerminalInfo`). */
export function describe(entry: Entry): TerminalInfo {
  const { session } = entry;
  const common = {
    id: session.id,
    kind: session.kind,
    title: session.title,
    state: session.state,
    ...(entry.reason ? { reason: entry.reason } : {}),
    bytesIn: session.bytesIn,
    bytesOut: session.bytesOut,
    ...(session.logPath ? { logPath: session.logPath } : {}),
    ...(session.logProblem ? { logProblem: session.logProblem } : {}),
  };
  if (session.kind === 'serial') {
    const { options } = session;
    return {
      ...common,
      ...(options.gateway ? { gatewayId: options.gateway } : {}),
      path: session.path,
      framing: formatFraming(options),
      // A port that is not open has no line state to show: the last one known may no longer hold.
      ...(session.state === 'open' ? { signals: session.signals } : {}),
      hostKeys: [],
    };
  }
  return {
    ...common,
    ...(session.gatewayId ? { gatewayId: session.gatewayId } : {}),
    route: session.route,
    hostKeys: session.hostKeys.map(({ keyId, fingerprint, isNew }) => ({ keyId, fingerprint, isNew })),
  };
}
