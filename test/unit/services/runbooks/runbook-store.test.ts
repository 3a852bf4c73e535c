import { mkdtemp, readdir, readFile, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultRunbooks } from '../../../../electron/services/runbooks/default-runbooks';
import { RunbookStore } from '../../../../electron/services/runbooks/runbook-store';
import { RunbookSchema, type Runbook } from '../../../../electron/shared/terminal/runbook-schemas';
import { ManualClock } from '../../../helpers/manual-clock';

function makeRunbookDraft(overrides: Partial<Runbook> = {}): Omit<Runbook, 'id'> {
  return {
    name: 'Restart the forwarder',
    steps: [
      { send: '/etc/init.d/pkt_fwd restart', wait: { kind: 'text', value: 'ok' }, timeLimitSeconds: 20 },
    ],
    ...overrides,
  };
}

describe('RunbookStore', () => {
  let dataDir: string;
  let store: RunbookStore;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'runbooks-'));
    store = new RunbookStore({ dataDir, clock: new ManualClock(1_700_000_000_000) });
  });

  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('gives a profile the shipped runbooks until it changes any', async () => {
    expect((await store.list('acme')).runbooks.map((runbook) => runbook.name)).toEqual([
      'Collect logs',
      'Show LoRa packet forwarder status',
      'Check the backhaul',
    ]);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('ships runbooks that pass the checks an import or the editor applies', () => {
    for (const runbook of defaultRunbooks()) expect(RunbookSchema.safeParse(runbook).error).toBeUndefined();
  });

  it('keeps a saved runbook with the shipped ones in a file only its owner may read', async () => {
    const saved = await store.save('acme', makeRunbookDraft());
    expect((await store.list('acme')).runbooks.map((runbook) => runbook.id)).toEqual([
      ...defaultRunbooks().map((runbook) => runbook.id),
      saved.id,
    ]);
    expect((await stat(join(dataDir, 'runbooks', 'acme.json'))).mode & 0o777).toBe(0o600);
    expect((await store.list('other')).runbooks).toHaveLength(defaultRunbooks().length);
  });

  it('imports an exported file into another profile, and the same file twice adds nothing', async () => {
    await store.save('acme', makeRunbookDraft());
    const exported = await store.export('acme');
    expect(exported.fileName).toBe('runbooks-acme.json');
    await store.delete('field', 'shipped-collect-logs');
    expect(await store.import('field', exported.text)).toEqual({ added: 2, unchanged: 2 });
    expect(await store.import('field', exported.text)).toEqual({ added: 0, unchanged: 4 });
    expect((await store.list('field')).runbooks.map((runbook) => runbook.name)).toEqual([
      'Show LoRa packet forwarder status',
      'Check the backhaul',
      'Collect logs',
      'Restart the forwarder',
    ]);
  });

  it('refuses a file with a bad step, naming where, and changes nothing', async () => {
    const saved = await store.save('acme', makeRunbookDraft());
    const file = JSON.parse((await store.export('acme')).text) as { runbooks: Runbook[] };
    file.runbooks.push({
      id: 'bad',
      name: 'Bad',
      steps: [{ send: 'x', wait: { kind: 'pattern', value: '(a+)+$' }, timeLimitSeconds: 9_999 }],
    });
    await expect(store.import('acme', JSON.stringify(file))).rejects.toThrow(
      /runbooks\.4\.steps\.0\.wait\.value: A repeated group may not itself repeat.*runbooks\.4\.steps\.0\.timeLimitSeconds/,
    );
    await expect(store.import('acme', '{"runbooks": [')).rejects.toThrow(
      'This file is not a runbook file: it is not JSON.',
    );
    await expect(store.import('acme', '{"runbooks": []}')).rejects.toThrow(
      'This file is not a runbook file: Field Kit reads the files its Export makes (they say "oam-field-kit-runbooks").',
    );
    expect((await store.list('acme')).runbooks.at(-1)).toEqual(saved);
  });

  it('shows the shipped runbooks when the saved file is unreadable, and keeps that file aside on the next change', async () => {
    await mkdir(join(dataDir, 'runbooks'), { recursive: true, mode: 0o700 });
    await writeFile(join(dataDir, 'runbooks', 'acme.json'), '{"format": "something else"}', { mode: 0o600 });
    const listed = await store.list('acme');
    expect(listed.problem).toMatch(
      /^The saved runbooks could not be read \(format: .*the shipped ones are shown/,
    );
    await store.save('acme', makeRunbookDraft());
    expect((await readdir(join(dataDir, 'runbooks'))).sort()).toEqual([
      'acme.json',
      'acme.unreadable-1700000000000.json',
    ]);
    expect(await readFile(join(dataDir, 'runbooks', 'acme.unreadable-1700000000000.json'), 'utf8')).toBe(
      '{"format": "something else"}',
    );
    expect((await store.list('acme')).problem).toBeUndefined();
  });
});
