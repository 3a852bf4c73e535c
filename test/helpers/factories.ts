import type { AuditEntry } from '../../electron/services/audit';
import type { SiteVisit } from '../../electron/services/reports';
import type { ServerSessionFacts } from '../../electron/app/server-session-port';
import type { CommandRequest } from '../../electron/shared/api/commands';
import type { Gateway } from '../../electron/shared/api/gateway';
import type { SessionSummary } from '../../electron/shared/ipc/schemas';
import { SITE_PACK_VERSION, type SitePackFile } from '../../electron/shared/site-pack-file';
import type { VisitEntry } from '../../electron/shared/visit/journal-entry';
import type { TriageResult } from '../../electron/shared/terminal/triage-schemas';

/** The time the factories' records are stamped with unless a test says otherwise (15 Jan 2026, 12:00 UTC). */
export const FACTORY_TIME = Date.UTC(2026, 0, 15, 12);

/**
 * A gateway record as the API's lists answer it, every field filled; `index` makes its id (`gw-<index>`), name
 * and MAC unique. Tests state only the fields they are about, through `overrides`.
 */
export function makeGateway(index = 0, overrides: Partial<Gateway> = {}): Gateway {
  const hex = index.toString(16).padStart(6, '0');
  return {
    id: { id: `gw-${index}`, entityType: 'GATEWAY' },
    createdTime: 1_700_000_000_000 + index,
    name: `Gateway ${index}`,
    gatewayMac: `00:80:00:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}`.toUpperCase(),
    gatewayModelName: 'iBTS',
    status: 'ONLINE',
    customerId: { id: 'customer-1', entityType: 'CUSTOMER' },
    bspVersion: '5.1.0',
    lastSeenTime: 1_700_000_100_000,
    ...overrides,
  };
}

/**
 * An audit log line: `ping` run on gw-1 by tech@example.com in the demo profile at FACTORY_TIME, answered in
 * 40 ms. No risk, request or answer unless `overrides` gives them.
 */
export function makeAuditEntry(overrides: Partial<AuditEntry> = {}): AuditEntry {
  return {
    at: FACTORY_TIME,
    profileId: 'demo',
    user: 'tech@example.com',
    gatewayId: 'gw-1',
    kind: 'command',
    name: 'ping',
    outcome: 'ok',
    durationMs: 40,
    ...overrides,
  };
}

/**
 * A site visit of one hour from FACTORY_TIME by tech@example.com to gw-1, named "Kona Macro 7" with its MAC, with
 * `entries` as its audit entries and nothing else measured.
 */
export function makeSiteVisit(entries: AuditEntry[] = [], overrides: Partial<SiteVisit> = {}): SiteVisit {
  return {
    title: 'Roof job',
    technician: 'tech@example.com',
    profileId: 'demo',
    gateways: [{ id: 'gw-1', name: 'Kona Macro 7', mac: '647FDAFFFE001CAD' }],
    startedAt: FACTORY_TIME,
    endedAt: FACTORY_TIME + 3_600_000,
    entries,
    ...overrides,
  };
}

/** A session service's facts for an active customer user (user-1 of customer-1) whose token runs a minute more. */
export function makeServerSessionFacts(overrides: Partial<ServerSessionFacts> = {}): ServerSessionFacts {
  return {
    username: 'tech@example.com',
    userId: 'user-1',
    role: 'CUSTOMER_USER',
    customerId: 'customer-1',
    accessExpiresAt: Date.now() + 60_000,
    state: 'active',
    ...overrides,
  };
}

/** What the renderer is told of an active session: makeServerSessionFacts in the demo profile. */
export function makeSessionSummary(overrides: Partial<SessionSummary> = {}): SessionSummary {
  return { profileId: 'demo', profileName: 'Demo network server', ...makeServerSessionFacts(), ...overrides };
}

/**
 * A valid body of the `reverseSsh` gateway command: a tunnel to a relay on 127.0.0.1:2222 as `relay`, remote
 * port 40022, no ssh options.
 */
export function makeReverseSshRequest(
  overrides: Partial<CommandRequest<'reverseSsh'>> = {},
): CommandRequest<'reverseSsh'> {
  return {
    options: '',
    sshRevPort: 40_022,
    username: 'relay',
    password: 'secret',
    sshHost: '127.0.0.1',
    sshPort: 2222,
    ...overrides,
  };
}

/**
 * A site pack of `count` gateways (makeGateway 0 to count - 1) of customer-1 for profile-1, the first one with
 * details: its serials, a raised alarm and an APN read that failed.
 */
export function makeSitePack(count: number, overrides: Partial<SitePackFile> = {}): SitePackFile {
  return {
    version: SITE_PACK_VERSION,
    profileId: 'profile-1',
    preparedAt: 1_700_000_200_000,
    scope: { kind: 'customer', id: 'customer-1' },
    gateways: Array.from({ length: count }, (_, index) => makeGateway(index)),
    details: {
      'gw-0': {
        readAt: 1_700_000_200_000,
        sections: {
          info: { value: { custGatewayId: 'SN-7781', moduleSerialNumber: 'IMEI-35000' } },
          alarms: { value: { data: [{ eventName: 'WAN down', endTs: null }] } },
          apns: { error: 'The gateway has no modem.' },
        },
      },
    },
    rootPasswordStored: [],
    ...overrides,
  };
}

/**
 * A visit journal entry of the work a visit is made of, different for each `index` and cycling through a note, a
 * command sent and its outcome, a measurement and a fleet row, each naming gateway `gw-<index % 20>`.
 */
export function makeVisitEntry(index = 0): VisitEntry {
  const gateway = { gatewayId: `gw-${index % 20}`, name: `acme-gw-${String(index % 20).padStart(4, '0')}` };
  switch (index % 5) {
    case 0:
      return { kind: 'note', text: `Checked the mast of ${gateway.name} (${index})`, gateway };
    case 1:
      return {
        kind: 'command-sent',
        commandId: `c-${index}`,
        gateway,
        command: 'getGatewayInfo',
        risk: 'read',
      };
    case 2:
      return { kind: 'command-outcome', commandId: `c-${index - 1}`, outcome: 'ok', durationMs: 120 };
    case 3:
      return {
        kind: 'measurement',
        gateway,
        measurement: 'ping',
        values: { target: '8.8.8.8', rttMs: 31 + index },
      };
    default:
      return { kind: 'fleet-row', jobId: 'job-1', gateway, change: 'Ping target: 1.1.1.1', outcome: 'ok' };
  }
}

/** Journal lines (as the report reads them) of serial triages, each naming the gateway its result names by id. */
export function makeTriageLines(
  triages: readonly TriageResult[],
): Array<{ at: number; entry: VisitEntry & { kind: 'triage' } }> {
  return triages.map((result) => ({
    at: result.finishedAt,
    entry: {
      kind: 'triage',
      ...(result.gatewayId ? { gateway: { gatewayId: result.gatewayId } } : {}),
      result,
    },
  }));
}

/**
 * Journal lines of terminal sessions opened at FACTORY_TIME with a log each; `gateway` is what names the session's
 * gateway: an id (`gw-1`) or, as a serial console's Gateway field, typed text.
 */
export function makeSessionLines(
  sessions: ReadonlyArray<{ label: string; path: string; gatewayId?: string; typed?: string }>,
): Array<{ at: number; entry: VisitEntry }> {
  return sessions.map((session, index) => ({
    at: FACTORY_TIME,
    entry: {
      kind: 'terminal-opened',
      sessionId: `session-${index + 1}`,
      transport: 'serial',
      title: session.label,
      logFile: session.path,
      ...(session.gatewayId
        ? { gateway: { gatewayId: session.gatewayId } }
        : session.typed
          ? { gateway: { typed: session.typed } }
          : {}),
    },
  }));
}
