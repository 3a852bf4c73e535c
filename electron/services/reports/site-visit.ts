import type { DisplayLanguage } from '../../shared/i18n';
import type { AuditEntry } from '../audit';
import type { RfBest, RfSample } from '../commissioning/rf-meter';
import type { TriageResult } from '../../shared/terminal/triage-schemas';
import type { ReportJournalLine } from './journal-terminals';

/** A ping measured during the visit. */
export interface PingMeasurement {
  at: number;
  gatewayId?: string;
  destination: string;
  packetsSent: number;
  packetsReceived: number;
}

/** An RF series measured during the visit (the RF meter's samples and best values). */
export interface RfMeasurement {
  gatewayId?: string;
  samples: RfSample[];
  best: RfBest;
}

/** A terminal session log written during the visit. */
export interface TerminalLogLink {
  label: string;
  path: string;
  /** The gateway the session was with, when known: the log is listed in that gateway's section. */
  gatewayId?: string;
}

/** A gateway of the visit: its id, and its name and MAC as the server has them (shown instead of the id). */
export interface VisitGateway {
  id: string;
  name?: string;
  mac?: string;
}

/** A photo the technician attached to the visit, embedded in the report. */
export interface VisitPhoto {
  id: string;
  caption: string;
  mimeType: 'image/jpeg' | 'image/png';
  /** The image bytes, base64. */
  base64: string;
  /** When it was attached (epoch milliseconds). */
  addedAt?: number;
}

/** What the site pack held about a gateway of the visit (read before the visit, shown "as of" its time). */
export interface PackedGatewayFacts {
  id: string;
  name: string;
  mac: string;
  model?: string | null;
  bspVersion?: string | null;
  status: string;
  lastSeenTime?: number | null;
  raisedAlarms?: string[];
  asOf: number;
}

/** Everything a site report is built from. */
export interface SiteVisit {
  title?: string;
  technician: string;
  profileId: string;
  /** The profile's name, shown instead of its id when known. */
  profileName?: string;
  site?: string;
  gateways: VisitGateway[];
  /** The customer the site belongs to. */
  customer?: string;
  /** The technician's name as signed (default: the signed-in user). */
  technicianName?: string;
  /** The customer's representative who acknowledges the visit. */
  customerRepresentative?: string;
  photos?: VisitPhoto[];
  startedAt: number;
  endedAt: number;
  /** The audit entries of the visit (AuditLog.read with `since`). */
  entries: AuditEntry[];
  rf?: RfMeasurement[];
  pings?: PingMeasurement[];
  terminalLogs?: TerminalLogLink[];
  /** The health panels of "Collect diagnostics" on serial consoles. */
  serialTriage?: TriageResult[];
  /** The visit's gateways as the site pack knew them (field mode: no server to ask). */
  fromPack?: PackedGatewayFacts[];
  notes?: string;
  /** The visit journal this report was made from: its entries and the hash of the last (printed on the last page). */
  journal?: { entries: number; head: string };
  /**
   * The visit journal's lines. When given, the serial triages and terminal sessions are the ones it recorded, each
   * under the gateway its entry named (`serialTriage` and `terminalLogs` are then not read).
   */
  journalLines?: readonly ReportJournalLine[];
}

/** How the report is written. */
export interface SiteReportOptions {
  /** The language of its words and times, chosen per export (default English); independent of the app's. */
  language?: DisplayLanguage;
  /** Time zone for times shown, said once on page one (default: this machine's). */
  timeZone?: string;
  /** Secret values known to the caller (passwords typed this session): masked wherever they appear. */
  knownSecrets?: string[];
  /** When the report is generated (default now). */
  generatedAt?: number;
}

/**
 * What a visit is collected from: the audit log's entries of a time span, plus what the app measured (the
 * SiteVisit's other fields, as they will appear in it).
 */
export interface VisitSource extends Omit<SiteVisit, 'entries' | 'gateways'> {
  audit: {
    read(query: { profileId: string; user?: string; since?: number; until?: number }): Promise<AuditEntry[]>;
  };
  /**
   * Whose work the visit shows: only this user's audit entries (the app passes the signed-in user, in field mode
   * the last one signed in on the profile). null: nobody is known, so no entry is shown; left out: everyone's.
   */
  user?: string | null;
  /** Only these gateways (default: every gateway the entries name). Names shown where given. */
  gateways?: VisitGateway[];
}

/** Reads the visit's audit entries (from `startedAt` to `endedAt`) and assembles the SiteVisit a report needs. */
export async function collectVisit(source: VisitSource): Promise<SiteVisit> {
  const entries =
    source.user === null
      ? []
      : await source.audit.read({
          profileId: source.profileId,
          ...(source.user !== undefined ? { user: source.user } : {}),
          since: source.startedAt,
          until: source.endedAt,
        });
  const wanted = source.gateways ? new Set(source.gateways.map((gateway) => gateway.id)) : undefined;
  const kept = wanted
    ? entries.filter((entry) => entry.gatewayId === undefined || wanted.has(entry.gatewayId))
    : entries;
  const gateways =
    source.gateways ??
    [...new Set(kept.flatMap((entry) => (entry.gatewayId ? [entry.gatewayId] : [])))].map((id) => ({ id }));
  return {
    title: source.title,
    site: source.site,
    ...(source.customer ? { customer: source.customer } : {}),
    ...(source.technicianName ? { technicianName: source.technicianName } : {}),
    ...(source.customerRepresentative ? { customerRepresentative: source.customerRepresentative } : {}),
    ...(source.photos && source.photos.length > 0 ? { photos: source.photos } : {}),
    technician: source.technician,
    profileId: source.profileId,
    ...(source.profileName ? { profileName: source.profileName } : {}),
    gateways,
    startedAt: source.startedAt,
    endedAt: source.endedAt,
    entries: kept,
    rf: source.rf,
    pings: source.pings,
    terminalLogs: source.terminalLogs,
    ...(source.serialTriage && source.serialTriage.length > 0 ? { serialTriage: source.serialTriage } : {}),
    fromPack: source.fromPack,
    notes: source.notes,
  };
}
