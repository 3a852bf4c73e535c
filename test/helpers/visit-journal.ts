import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../electron/shared/clock';
import { VisitCommandJournal, Visits, type VisitOpenInput } from '../../electron/services/visit';
import type { JournalLine, VisitEntry } from '../../electron/shared/visit/journal-entry';

/** A visit kept by the real journal in a folder of its own, for tests that build a report from its lines. */
export interface TestVisit {
  visits: Visits;
  visitId: string;
  /** The visit's folder (its photos are under `photos/`). */
  folder: string;
  /** The command path's recorder of this visit (wizards, tasks and commands append through it). */
  journal: VisitCommandJournal;
  /** Appends each entry, in order, through the journal. */
  append(...entries: VisitEntry[]): Promise<void>;
  /** The visit's journal lines as they stand. */
  lines(): JournalLine[];
  /** Closes the journal files and removes the folder. */
  remove(): Promise<void>;
}

/**
 * Opens a visit in a new temporary data folder through the real Visits (hash-chained, flushed): what the report
 * reads is what the journal holds. The clock stamps each line (a ManualClock lets a test say when).
 */
export async function openTestVisit(
  input: VisitOpenInput = {},
  clock?: Pick<Clock, 'now'>,
): Promise<TestVisit> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-visit-'));
  const visits = new Visits({ dataDir, ...(clock ? { clock } : {}) });
  await visits.load();
  const visit = await visits.open(input);
  return {
    visits,
    visitId: visit.id,
    folder: visits.pathsOf(visit.id).folder,
    journal: new VisitCommandJournal(visits, clock),
    append: async (...entries) => {
      for (const entry of entries) await visits.append(entry);
    },
    lines: () => visits.entries(visit.id),
    remove: async () => {
      await visits.shutdown();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
