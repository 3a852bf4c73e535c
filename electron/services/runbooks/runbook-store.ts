import { randomUUID } from 'node:crypto';
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import {
  RUNBOOK_FILE_FORMAT,
  RUNBOOKS_MAX,
  RunbookFileSchema,
  type Runbook,
  type RunbookFile,
} from '../../shared/terminal/runbook-schemas';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { writeFileAtomic } from '../files/atomic-file';
import { readPrivateFile } from '../files/private-files';
import { defaultRunbooks } from './default-runbooks';
import { t } from '../../shared/i18n';

const PROFILE_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

/** A runbook file that cannot be imported, with every reason in words (nothing was changed). */
export class RunbookFileError extends Error {
  override readonly name = 'RunbookFileError';
}

/** No runbook of the profile has this id (deleted meanwhile). */
export class RunbookNotFoundError extends Error {
  override readonly name = 'RunbookNotFoundError';
}

/** A profile's runbooks, and why its saved file could not be read when it could not (the shipped ones are shown). */
export interface RunbookList {
  runbooks: Runbook[];
  problem?: string;
}

/** What an import did. */
export interface RunbookImport {
  /** Runbooks added (one whose id was taken gets a new id). */
  added: number;
  /** Runbooks the profile had already, the same to the letter: not added twice. */
  unchanged: number;
}

/** Up to five failing places of a parse, as `runbooks.0.steps.1.timeLimitSeconds: Too big…`. */
function describeIssues(error: z.ZodError): string {
  const lines = error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`);
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '';
  return `${lines.join('; ')}${more}`;
}

/** An object that says it is a runbook file (whatever else is wrong with it). */
function isRunbookFileShaped(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && 'format' in value && value.format === RUNBOOK_FILE_FORMAT
  );
}

/** Same name, description and steps: an import of it adds nothing. */
function isSameRunbook(left: Runbook, right: Runbook): boolean {
  const { id: _left, ...leftContent } = left;
  const { id: _right, ...rightContent } = right;
  return JSON.stringify(leftContent) === JSON.stringify(rightContent);
}

/**
 * Each profile's runbooks in `<dataDir>/runbooks/<profileId>.json` (an export file's format, 0600, written
 * atomically and one change at a time per profile). A profile without a file has the shipped defaultRunbooks();
 * its first change writes them with it. A file that cannot be read is never overwritten: the list shows the
 * shipped ones with a problem, and the next change first moves the file aside (`…unreadable-<time>.json`).
 */
export class RunbookStore {
  readonly #folder: string;
  readonly #clock: Pick<Clock, 'now'>;
  readonly #queues = new Map<string, Promise<unknown>>();

  constructor(options: { dataDir: string; clock?: Pick<Clock, 'now'> }) {
    this.#folder = join(options.dataDir, 'runbooks');
    this.#clock = options.clock ?? SYSTEM_CLOCK;
  }

  /** The profile's runbooks, in the order kept. */
  async list(profileId: string): Promise<RunbookList> {
    const loaded = await this.#load(profileId);
    return {
      runbooks: loaded.runbooks,
      ...(loaded.problem ? { problem: loaded.problem } : {}),
    };
  }

  /** One runbook of the profile; rejects with RunbookNotFoundError when it has none with that id. */
  async get(profileId: string, id: string): Promise<Runbook> {
    const runbook = (await this.#load(profileId)).runbooks.find((candidate) => candidate.id === id);
    if (!runbook) throw new RunbookNotFoundError(t('terminals:runbookGone'));
    return runbook;
  }

  /** Saves a runbook in its place (a new one, without an id, goes last with a new id); resolves with it. */
  save(profileId: string, draft: Omit<Runbook, 'id'> & { id?: string | undefined }): Promise<Runbook> {
    return this.#change(profileId, (runbooks) => {
      const saved: Runbook = { ...draft, id: draft.id ?? randomUUID() };
      const index = runbooks.findIndex((runbook) => runbook.id === saved.id);
      if (index >= 0) runbooks[index] = saved;
      else if (runbooks.length >= RUNBOOKS_MAX)
        throw new RunbookFileError(`A profile keeps at most ${RUNBOOKS_MAX} runbooks: delete one first.`);
      else runbooks.push(saved);
      return saved;
    });
  }

  /** Deletes a runbook; one already gone is not an error. */
  async delete(profileId: string, id: string): Promise<void> {
    await this.#change(profileId, (runbooks) => {
      const index = runbooks.findIndex((runbook) => runbook.id === id);
      if (index >= 0) runbooks.splice(index, 1);
    });
  }

  /** The profile's runbooks as the text of an export file, and a name for it. */
  async export(profileId: string): Promise<{ fileName: string; text: string }> {
    const { runbooks } = await this.#load(profileId);
    const file: RunbookFile = { format: RUNBOOK_FILE_FORMAT, version: 1, runbooks };
    return { fileName: `runbooks-${profileId}.json`, text: `${JSON.stringify(file, null, 2)}\n` };
  }

  /**
   * Adds the runbooks of an export file's text. Rejects with a RunbookFileError naming every problem, changing
   * nothing, when the text is not such a file or would take the profile past RUNBOOKS_MAX.
   */
  import(profileId: string, text: string): Promise<RunbookImport> {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return Promise.reject(new RunbookFileError(t('terminals:runbookFileNotJson')));
    }
    if (!isRunbookFileShaped(parsed)) {
      return Promise.reject(
        new RunbookFileError(t('terminals:runbookFileWrongKind', { marker: 'oam-field-kit-runbooks' })),
      );
    }
    const file = RunbookFileSchema.safeParse(parsed);
    if (!file.success) {
      return Promise.reject(
        new RunbookFileError(t('terminals:runbookFileUnreadable', { reason: describeIssues(file.error) })),
      );
    }
    return this.#change(profileId, (runbooks) => {
      const result: RunbookImport = { added: 0, unchanged: 0 };
      const additions: Runbook[] = [];
      for (const runbook of file.data.runbooks) {
        if ([...runbooks, ...additions].some((kept) => isSameRunbook(kept, runbook))) {
          result.unchanged += 1;
          continue;
        }
        const isIdTaken = [...runbooks, ...additions].some((kept) => kept.id === runbook.id);
        additions.push(isIdTaken ? { ...runbook, id: randomUUID() } : runbook);
      }
      if (runbooks.length + additions.length > RUNBOOKS_MAX)
        throw new RunbookFileError(
          t('terminals:runbookImportTooMany', {
            count: runbooks.length + additions.length,
            max: RUNBOOKS_MAX,
          }),
        );
      runbooks.push(...additions);
      result.added = additions.length;
      return result;
    });
  }

  #pathOf(profileId: string): string {
    if (!PROFILE_ID_PATTERN.test(profileId) || profileId.startsWith('.'))
      throw new Error(`Profile id ${JSON.stringify(profileId)} cannot name a runbook file`);
    return join(this.#folder, `${profileId}.json`);
  }

  async #load(profileId: string): Promise<{ runbooks: Runbook[]; problem?: string; isUnreadable?: true }> {
    let text: string;
    try {
      text = await readPrivateFile(this.#pathOf(profileId));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { runbooks: defaultRunbooks() };
      return this.#unreadable(error instanceof Error ? error.message : String(error));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return this.#unreadable(t('terminals:runbooksSavedNotJson'));
    }
    const file = RunbookFileSchema.safeParse(parsed);
    if (!file.success) return this.#unreadable(describeIssues(file.error));
    return { runbooks: file.data.runbooks };
  }

  #unreadable(reason: string): { runbooks: Runbook[]; problem: string; isUnreadable: true } {
    return {
      runbooks: defaultRunbooks(),
      problem: t('terminals:runbooksSavedUnreadable', { reason }),
      isUnreadable: true,
    };
  }

  /** Runs one change of a profile's runbooks after the ones before it, then writes them. */
  #change<Result>(profileId: string, change: (runbooks: Runbook[]) => Result): Promise<Result> {
    const previous = this.#queues.get(profileId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const path = this.#pathOf(profileId);
        const loaded = await this.#load(profileId);
        const result = change(loaded.runbooks);
        if (loaded.isUnreadable)
          await rename(path, path.replace(/\.json$/, `.unreadable-${this.#clock.now()}.json`));
        const file: RunbookFile = { format: RUNBOOK_FILE_FORMAT, version: 1, runbooks: loaded.runbooks };
        await writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`);
        return result;
      });
    this.#queues.set(profileId, next);
    return next;
  }
}
