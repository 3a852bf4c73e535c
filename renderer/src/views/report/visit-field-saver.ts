import type { VisitFields } from '../../../../electron/shared/visit/journal-entry';

/** What a save answers: the transport's Result, of which only success and the error's message matter here. */
type SaveAnswer = { ok: true } | { ok: false; error: { message: string } };

/**
 * Saves the visit's fields as they are typed, without a timer: one `visit:update` is in flight at a time, and what
 * was typed meanwhile goes in the next one, so the last value typed is always the one kept — also when the view
 * is left at once, since the save already sent carries on in main. A refused save is reported through `onError`
 * (a full disk: the message says nothing was recorded).
 */
export class VisitFieldSaver {
  private pending: VisitFields = {};
  private running: Promise<void> | null = null;

  constructor(
    private readonly save: (fields: VisitFields) => Promise<SaveAnswer>,
    private readonly onError: (message: string | null) => void,
  ) {}

  /** Queues fields to save as typed; saving starts at once unless a save is under way. */
  set(fields: VisitFields): void {
    Object.assign(this.pending, fields);
    this.running ??= this.drain();
  }

  /** Resolves once everything set so far has been saved (or refused). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (Object.keys(this.pending).length > 0) {
        const batch = this.pending;
        this.pending = {};
        const answer = await this.save(batch);
        this.onError(answer.ok ? null : answer.error.message);
      }
    } finally {
      this.running = null;
    }
  }
}
