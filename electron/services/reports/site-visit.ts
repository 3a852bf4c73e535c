import type { DisplayLanguage } from '../../shared/i18n';
import type { AuditEntry } from '../../shared/report/visit-summary';
import type { RfBest, RfSample } from '../commissioning/rf-meter';
import type { AcceptanceCard } from '../../shared/visit/acceptance-card';
import type { ReportJournalLine } from './journal-terminals';

/** A ping measured during the visit. */
export interface PingMeasurement {
  at: number;
  gatewayId?: string;
  destination: string;
  packetsSent: number;
  packetsReceived: number;
}

/** An acceptance card the journal holds, under the gateway its entry named (resolved as every entry's is). */
export interface AcceptanceCheck {
  gatewayId?: string;
  card: AcceptanceCard;
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
  /** When the session was opened, as its journal recorded it. */
  openedAt?: number;
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

/**
 * Everything a site report is built from: a visit's journal as visitFromJournal reads it (journal-visit.ts), with
 * the context a report adds (who prints it, the site pack's facts).
 */
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
  /** The visit's commands, wizard steps and ends, and fleet rows, as visitFromJournal reads them from its journal. */
  entries: AuditEntry[];
  rf?: RfMeasurement[];
  pings?: PingMeasurement[];
  /** The acceptance checks of the visit, oldest first, each under the gateway its entry named (page one's findings). */
  acceptanceChecks?: AcceptanceCheck[];
  /** The visit's gateways as the site pack knew them (field mode: no server to ask). */
  fromPack?: PackedGatewayFacts[];
  notes?: string;
  /** The visit journal this report was made from: its entries and the hash of the last (printed on the last page). */
  journal?: { entries: number; head: string };
  /**
   * The visit journal's lines: its serial triages, terminal sessions, acceptance checks and acknowledgement, each
   * under the gateway its entry named.
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
