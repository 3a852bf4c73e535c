import { describe, expect, it } from 'vitest';
import type { VisitFields } from '../../../../electron/shared/visit/journal-entry';
import { VisitFieldSaver } from '../../../../renderer/src/views/report/visit-field-saver';

/** A save the test answers by hand, recording what each call carried. */
function manualSave() {
  const calls: Array<{ fields: VisitFields; answer: (ok: boolean) => void }> = [];
  const save = (fields: VisitFields) =>
    new Promise<{ ok: true } | { ok: false; error: { message: string } }>((resolve) => {
      calls.push({
        fields,
        answer: (ok) => resolve(ok ? { ok: true } : { ok: false, error: { message: 'The disk is full' } }),
      });
    });
  return { calls, save };
}

describe('VisitFieldSaver', () => {
  it('saves at once, and sends what was typed meanwhile in one save after it', async () => {
    const { calls, save } = manualSave();
    const saver = new VisitFieldSaver(save, () => undefined);
    saver.set({ site: 'H' });
    saver.set({ site: 'Ha' });
    saver.set({ site: 'Harbour', notes: 'Cable' });
    expect(calls.map((call) => call.fields)).toEqual([{ site: 'H' }]);
    calls[0]!.answer(true);
    await Promise.resolve();
    await Promise.resolve();
    expect(calls.map((call) => call.fields)).toEqual([{ site: 'H' }, { site: 'Harbour', notes: 'Cable' }]);
    calls[1]!.answer(true);
    await saver.settled();
    expect(calls).toHaveLength(2);
  });

  it('reports a refused save and clears the message once a save goes through', async () => {
    const { calls, save } = manualSave();
    const messages: Array<string | null> = [];
    const saver = new VisitFieldSaver(save, (message) => messages.push(message));
    saver.set({ notes: 'a' });
    calls[0]!.answer(false);
    await saver.settled();
    saver.set({ notes: 'ab' });
    calls[1]!.answer(true);
    await saver.settled();
    expect(messages).toEqual(['The disk is full', null]);
  });
});
