import { join } from 'node:path';
import { readBounded, sha256Hex } from '../visit/journal-file';
import { emptyState, fold } from '../visit/visit-state';
import { UNNAMED_GATEWAY } from '../visit/command-journal';
import type { RfSample } from '../commissioning/rf-meter';
import type { AuditEntry } from '../../shared/report/visit-summary';
import { matchGateway } from '../../shared/report/visit-lines';
import { normalizeMac } from '../../shared/mac';
import type { GatewayIdentity, JournalLine, VisitEntry } from '../../shared/visit/journal-entry';
import type {
  PackedGatewayFacts,
  AcceptanceCheck,
  PingMeasurement,
  RfMeasurement,
  SiteVisit,
  VisitGateway,
  VisitPhoto,
} from './site-visit';

/** What a report adds to a visit's journal at render time: context, not a record of the visit. */
export interface JournalVisitContext {
  /** Who the report says made it (the signed-in user, or "not signed in" words), and the profile's name. */
  technician: string;
  profileId: string;
  profileName?: string;
  /** The site pack's facts about the gateways the journal names (read when the report is made). */
  fromPack?: PackedGatewayFacts[];
  /**
   * Names and MACs of gateways the journal names by id alone, as the server or the site pack knows them when the
   * report is made (the command path records a gateway by its id): used only where the journal holds no name.
   */
  named?: readonly VisitGateway[];
  /** The bytes of the journal's photos (readJournalPhotos), by photo id. */
  photos?: readonly VisitPhoto[];
  /** Only these gateways (ids as the journal names them): a filter over the journal's gateways. */
  gateways?: readonly string[];
  /** The visit's end when it is still open (now). */
  now: number;
}

/** Wizards whose end `changed` means their settings were applied and read back (the others are gateway tasks). */
const VERIFYING_WIZARDS = new Set(['connectivity', 'cellular', 'firewall']);

/** A wizard-outcome's outcome as the recorded response's `outcome` (WizardOutcomeSchema), for an older entry. */
const WIZARD_RESPONSES: Record<string, string> = {
  changed: 'applied',
  'no-change': 'unchanged',
  'rolled-back': 'rolled-back',
  'rollback-failed': 'rollback-failed',
};

type Entry<Kind extends VisitEntry['kind']> = Extract<VisitEntry, { kind: Kind }>;

/** The entries of a journal's lines, each with when it was recorded (lines of a kind this version lacks kept out). */
function entriesOf(lines: readonly JournalLine[]): Array<{ at: number; entry: VisitEntry }> {
  return lines.map((line) => ({ at: line.at, entry: line.entry as VisitEntry }));
}

/**
 * The gateways a journal names, merged into one per gateway: by the id an entry recorded (the server's or the
 * pack's), else by its MAC, else by its name or what was typed (matched to a gateway of the journal or of the
 * pack, else kept under that text). A text the technician later identified (`gateway-identified`) is that gateway.
 * Returns the gateways by key and a function giving the key of an identity.
 */
export function journalGateways(
  lines: readonly JournalLine[],
  fromPack: readonly PackedGatewayFacts[] = [],
  named: readonly VisitGateway[] = [],
): { gateways: Map<string, VisitGateway>; keyOf(identity: GatewayIdentity | undefined): string | undefined } {
  const entries = entriesOf(lines).map(({ entry }) => entry);
  const fold = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');
  const chosen = new Map<string, GatewayIdentity>();
  for (const entry of entries)
    if (entry.kind === 'gateway-identified') chosen.set(fold(entry.typed), entry.gateway);
  const identities = entries.flatMap((entry) => {
    const gateway = (entry as { gateway?: GatewayIdentity }).gateway;
    return gateway && entry.kind !== 'gateway-identified' ? [gateway] : [];
  });
  const known = new Map<string, VisitGateway>();
  const remember = (id: string, name?: string, mac?: string) => {
    const before = known.get(id);
    known.set(id, {
      id,
      ...(name || before?.name ? { name: name || before?.name } : {}),
      ...macOf(mac, before),
    });
  };
  for (const identity of [...identities, ...chosen.values()])
    if (identity.gatewayId) remember(identity.gatewayId, identity.name, identity.mac);
  const packed = [...fromPack.map((facts) => ({ id: facts.id, name: facts.name, mac: facts.mac })), ...named];
  const keyOf = (identity: GatewayIdentity | undefined): string | undefined => {
    if (!identity || identity.typed === UNNAMED_GATEWAY) return undefined;
    if (identity.gatewayId) return identity.gatewayId;
    const text = identity.typed ?? identity.name ?? identity.mac;
    const picked = text === undefined ? undefined : chosen.get(fold(text));
    if (picked?.gatewayId) return picked.gatewayId;
    const mac = identity.mac ? normalizeMac(identity.mac) : null;
    const byMac = mac
      ? [...known.values(), ...packed].find((gateway) => gateway.mac && normalizeMac(gateway.mac) === mac)
      : undefined;
    if (byMac) return byMac.id;
    return text === undefined ? undefined : matchGateway(text, [...known.values(), ...packed]);
  };
  const gateways = new Map<string, VisitGateway>();
  for (const identity of identities) {
    const key = keyOf(identity);
    if (key === undefined || gateways.has(key)) continue;
    const facts = packed.find((gateway) => gateway.id === key);
    const gateway = known.get(key);
    // A text that names no gateway of the journal or the pack stays a terminal's text, not a gateway.
    if (gateway || facts) gateways.set(key, { ...facts, ...gateway, id: key, ...nameOf(gateway, facts) });
  }
  return { gateways, keyOf };
}

function nameOf(gateway: VisitGateway | undefined, facts: VisitGateway | undefined): { name?: string } {
  const name = gateway?.name ?? facts?.name;
  return name ? { name } : {};
}

function macOf(mac: string | undefined, before: VisitGateway | undefined): { mac?: string } {
  const kept = mac || before?.mac;
  return kept ? { mac: kept } : {};
}

/** A command-sent and its outcome as one command line of the report (an outcome never recorded: `unknown`). */
function commandOf(
  sent: { at: number; entry: Entry<'command-sent'> },
  outcome: { at: number; entry: Entry<'command-outcome'> } | undefined,
  gatewayId: string | undefined,
): AuditEntry {
  const { entry } = sent;
  return {
    at: sent.at,
    ...(gatewayId ? { gatewayId } : {}),
    kind: 'command',
    name: entry.command,
    ...(entry.risk ? { risk: entry.risk } : {}),
    ...(entry.request === undefined ? {} : { request: entry.request }),
    ...(entry.runId ? { runId: entry.runId } : {}),
    ...(entry.automatic ? { automatic: true } : {}),
    outcome: outcome?.entry.outcome ?? 'unknown',
    ...(outcome?.entry.response === undefined ? {} : { response: outcome.entry.response }),
    ...(outcome?.entry.error === undefined ? {} : { error: outcome.entry.error }),
    ...(outcome?.entry.durationMs === undefined ? {} : { durationMs: outcome.entry.durationMs }),
  };
}

/** A wizard's step or end as the change it tells (before → after, how it ended and why). */
function wizardOf(at: number, entry: Entry<'wizard-step'> | Entry<'wizard-outcome'>, gatewayId?: string) {
  const values = {
    ...(entry.before === undefined ? {} : { before: entry.before }),
    ...(entry.after === undefined ? {} : { after: entry.after }),
  };
  // A run's end is recorded when it ends; the change is told from when it began (the reads of its span follow it).
  const began = entry.kind === 'wizard-outcome' ? at - (entry.durationMs ?? 0) : at;
  const base = {
    at: began,
    ...(gatewayId ? { gatewayId } : {}),
    kind: 'wizard',
    runId: entry.runId,
    ...values,
  };
  if (entry.kind === 'wizard-step') return { ...base, name: `${entry.wizard}:${entry.step}`, outcome: 'ok' };
  const recorded = entry.response as { outcome?: unknown } | undefined;
  const answer =
    recorded === undefined && VERIFYING_WIZARDS.has(entry.wizard) && entry.outcome in WIZARD_RESPONSES
      ? { response: { outcome: WIZARD_RESPONSES[entry.outcome] } }
      : entry.response === undefined
        ? {}
        : { response: entry.response };
  const outcome =
    entry.outcome === 'changed' || entry.outcome === 'no-change'
      ? 'ok'
      : entry.outcome === 'cancelled' || entry.outcome === 'unknown'
        ? entry.outcome
        : 'failed';
  return {
    ...base,
    name: entry.wizard,
    outcome,
    ...answer,
    ...(entry.reason === undefined ? {} : { error: entry.reason }),
    ...(entry.durationMs === undefined ? {} : { durationMs: entry.durationMs }),
  } satisfies AuditEntry;
}

/** A fleet row as its change: the change's name and what it sent (`<name> <request JSON>`, as recorded). */
function fleetOf(at: number, entry: Entry<'fleet-row'>, gatewayId?: string): AuditEntry {
  const space = entry.change.indexOf(' ');
  const name = space === -1 ? entry.change : entry.change.slice(0, space);
  let request: unknown;
  try {
    request = space === -1 ? undefined : JSON.parse(entry.change.slice(space + 1));
  } catch {
    // A change text cut at its length limit, or written by hand: its name is still told.
  }
  return {
    at,
    ...(gatewayId ? { gatewayId } : {}),
    kind: 'fleet',
    name,
    runId: entry.jobId,
    ...(request === undefined ? {} : { request }),
    outcome: entry.outcome,
    ...(entry.before === undefined ? {} : { before: entry.before }),
    ...(entry.after === undefined ? {} : { after: entry.after }),
    ...(entry.error === undefined ? {} : { error: entry.error }),
  };
}

/** A runbook run on one session as a line of the commands: its steps sent, how it ended, the first step's trouble. */
function runbookOf(at: number, entry: Entry<'runbook'>, gatewayId?: string): AuditEntry {
  const trouble = entry.steps.find((step) => step.message !== undefined)?.message;
  return {
    at,
    ...(gatewayId ? { gatewayId } : {}),
    kind: 'runbook',
    name: entry.runbook,
    runId: entry.runId,
    request: entry.steps.map((step) => step.send),
    outcome: entry.outcome,
    ...(trouble === undefined ? {} : { error: trouble }),
  };
}

/** The RF meter readings of a journal, one series per meter, with the best value of each figure. */
function rfSeriesOf(
  readings: Array<{ gatewayId?: string; values: Record<string, unknown> }>,
): RfMeasurement[] {
  const series = new Map<string, RfMeasurement>();
  for (const { gatewayId, values } of readings) {
    const sample = values as Partial<RfSample> & { meterId?: unknown };
    if (typeof sample.at !== 'number') continue;
    const key = `${String(sample.meterId)}|${gatewayId ?? ''}`;
    const current = series.get(key) ?? {
      ...(gatewayId ? { gatewayId } : {}),
      samples: [],
      best: { signalStrength: null, sinr: null, rsrq: null, ecio: null },
    };
    const complete: RfSample = {
      at: sample.at,
      signalStrength: Number(sample.signalStrength),
      sinr: Number(sample.sinr),
      rsrq: Number(sample.rsrq),
      ecio: Number(sample.ecio),
    };
    current.samples.push(complete);
    for (const figure of ['signalStrength', 'sinr', 'rsrq', 'ecio'] as const) {
      const best = current.best[figure];
      const value = complete[figure];
      if (Number.isFinite(value) && (!best || value > best.value))
        current.best[figure] = { value, at: complete.at };
    }
    series.set(key, current);
  }
  return [...series.values()];
}

/** A ping the journal measured (`measurement` ping: its destination and the gateway's answer). */
function pingOf(at: number, values: Record<string, unknown>, gatewayId?: string): PingMeasurement[] {
  const answer = values.answer as { packets_sent?: unknown; packets_recv?: unknown } | undefined;
  if (typeof values.destination !== 'string' || typeof answer?.packets_sent !== 'number') return [];
  return [
    {
      at,
      ...(gatewayId ? { gatewayId } : {}),
      destination: values.destination,
      packetsSent: answer.packets_sent,
      packetsReceived: typeof answer.packets_recv === 'number' ? answer.packets_recv : 0,
    },
  ];
}

/**
 * The visit one journal tells, as the report renders it — from its lines alone, plus the context a report adds
 * (who prints it, the site pack's facts, the photos' bytes). Its fields are visit-opened and fields-edited folded;
 * its gateways the ones the entries name (journalGateways); its commands each command-sent with its outcome (none
 * recorded: unknown); its changes the wizards' ends and fleet rows; its measurements the RF readings and pings; its
 * notes the visit's notes field and each note entry. A `gateways` filter keeps the work of those gateways and the
 * work of none.
 */
export function visitFromJournal(lines: readonly JournalLine[], context: JournalVisitContext): SiteVisit {
  const state = emptyState(lines[0]?.visitId ?? '');
  for (const line of lines) fold(state, line);
  const { gateways, keyOf } = journalGateways(lines, context.fromPack, context.named);
  const wanted = context.gateways && context.gateways.length > 0 ? new Set(context.gateways) : undefined;
  const isKept = (key: string | undefined) => key === undefined || !wanted || wanted.has(key);
  const outcomes = new Map<string, { at: number; entry: Entry<'command-outcome'> }>();
  const entries = entriesOf(lines);
  for (const item of entries)
    if (item.entry.kind === 'command-outcome')
      outcomes.set(item.entry.commandId, { at: item.at, entry: item.entry });
  const fleetJobs = new Set(
    entries.flatMap(({ entry }) => (entry.kind === 'fleet-row' ? [entry.jobId] : [])),
  );
  const work: AuditEntry[] = [];
  const rf: Array<{ gatewayId?: string; values: Record<string, unknown> }> = [];
  const pings: PingMeasurement[] = [];
  const acceptanceChecks: AcceptanceCheck[] = [];
  const notes: string[] = state.notes?.trim() ? [state.notes.trim()] : [];
  for (const { at, entry } of entries) {
    const gatewayId = keyOf((entry as { gateway?: GatewayIdentity }).gateway);
    if (!isKept(gatewayId)) continue;
    switch (entry.kind) {
      case 'command-sent':
        // A fleet job's command is told by its row, as a change.
        if (entry.runId === undefined || !fleetJobs.has(entry.runId))
          work.push(commandOf({ at, entry }, outcomes.get(entry.commandId), gatewayId));
        break;
      case 'wizard-step':
      case 'wizard-outcome':
        work.push(wizardOf(at, entry, gatewayId));
        break;
      case 'fleet-row':
        work.push(fleetOf(at, entry, gatewayId));
        break;
      case 'measurement':
        if (entry.measurement === 'rf')
          rf.push({ ...(gatewayId ? { gatewayId } : {}), values: entry.values });
        if (entry.measurement === 'ping') pings.push(...pingOf(at, entry.values, gatewayId));
        break;
      case 'note':
        notes.push(entry.text);
        break;
      case 'runbook':
        work.push(runbookOf(at, entry, gatewayId));
        break;
      case 'acceptance':
        acceptanceChecks.push({ ...(gatewayId ? { gatewayId } : {}), card: entry.card });
        break;
      default:
        break;
    }
  }
  const photoIds = new Set(state.photos.map((photo) => photo.photoId));
  const kept = (id: string) => isKept(id) && (!wanted || wanted.has(id));
  return {
    ...(state.title ? { title: state.title } : {}),
    technician: context.technician,
    profileId: state.profileId ?? context.profileId,
    ...(context.profileName ? { profileName: context.profileName } : {}),
    ...(state.site ? { site: state.site } : {}),
    ...(state.customer ? { customer: state.customer } : {}),
    ...(state.technician ? { technicianName: state.technician } : {}),
    ...(state.customerRepresentative ? { customerRepresentative: state.customerRepresentative } : {}),
    gateways: [...gateways.values()].filter((gateway) => kept(gateway.id)),
    photos: (context.photos ?? []).filter((photo) => photoIds.has(photo.id)),
    startedAt: state.arrivedAt,
    endedAt: state.departedAt ?? context.now,
    entries: work,
    rf: rfSeriesOf(rf),
    pings,
    acceptanceChecks,
    ...(context.fromPack ? { fromPack: context.fromPack.filter((facts) => kept(facts.id)) } : {}),
    ...(notes.length > 0 ? { notes: notes.join('\n\n') } : {}),
    journal: { entries: lines.length, head: lines.at(-1)?.hash ?? '' },
    journalLines: wanted
      ? lines.filter((line) => isKept(keyOf((line.entry as { gateway?: GatewayIdentity }).gateway)))
      : lines,
  };
}

/**
 * The photos a journal holds at its end (photo-attached, not removed), read from the visit's folder
 * (`<folder>/photos/<file>`). A file missing, or whose bytes no longer hash to the entry's SHA-256, is left out of
 * the report: it is not the photo that was attached (a bundle's verification says which).
 */
export async function readJournalPhotos(
  lines: readonly JournalLine[],
  folder: string,
): Promise<VisitPhoto[]> {
  const state = emptyState(lines[0]?.visitId ?? '');
  const attachedAt = new Map<string, number>();
  for (const line of lines) {
    fold(state, line);
    const entry = line.entry as VisitEntry;
    if (entry.kind === 'photo-attached') attachedAt.set(entry.photo.photoId, line.at);
  }
  const photos: VisitPhoto[] = [];
  for (const photo of state.photos) {
    const bytes = await readBounded(join(folder, 'photos', photo.fileName)).catch(() => undefined);
    if (!bytes || sha256Hex(bytes) !== photo.sha256) continue;
    photos.push({
      id: photo.photoId,
      caption: photo.caption,
      mimeType: photo.mimeType,
      base64: bytes.toString('base64'),
      addedAt: attachedAt.get(photo.photoId) ?? state.arrivedAt,
    });
  }
  return photos;
}
