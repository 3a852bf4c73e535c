import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  describeVerdict,
  readChosenBundle,
  type ChosenFile,
} from '../../../../renderer/src/views/report/chosen-bundle';

/** A file as a folder picker gives it: its path under the folder picked, and its bytes. */
function chosenFile(webkitRelativePath: string, text: string): ChosenFile {
  const bytes = new TextEncoder().encode(text);
  return {
    webkitRelativePath,
    name: webkitRelativePath.split('/').pop()!,
    arrayBuffer: () => Promise.resolve(bytes.buffer),
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('a bundle folder chosen in the report view', () => {
  it('sends the manifest and journal in full and every file by its path in the bundle and its SHA-256', async () => {
    const chosen = await readChosenBundle([
      chosenFile('site-report_Harbour/manifest.json', '{"format":"x"}'),
      chosenFile('site-report_Harbour/journal.jsonl', '{"seq":0}\n'),
      chosenFile('site-report_Harbour/photos/mast.png', 'png bytes'),
    ]);
    expect(chosen).toEqual({
      manifest: Buffer.from('{"format":"x"}').toString('base64'),
      journal: Buffer.from('{"seq":0}\n').toString('base64'),
      files: [
        { path: 'manifest.json', sha256: sha256('{"format":"x"}') },
        { path: 'journal.jsonl', sha256: sha256('{"seq":0}\n') },
        { path: 'photos/mast.png', sha256: sha256('png bytes') },
      ],
    });
  });
});

describe('the verdict in words', () => {
  it('says a bundle is verified with its head, entries, photos and logs', () => {
    expect(
      describeVerdict({
        isIntact: true,
        problems: [],
        entries: 12,
        head: 'ab'.repeat(32),
        files: { reports: 2, photos: 1, logs: 3 },
      }),
    ).toEqual({
      headline:
        'Verified: nothing was changed, added or removed. 12 journal entries, 1 photo, 3 logs, 2 report files.',
      more: [`Journal head (compare with the report's last page): ${'ab'.repeat(32)}`],
    });
  });

  it('names the first thing changed, then the others', () => {
    expect(
      describeVerdict({
        isIntact: false,
        problems: ['photo a.png was changed: its SHA-256 is not the one recorded', 'notes.txt was added'],
      }),
    ).toEqual({
      headline: 'Not intact: photo a.png was changed: its SHA-256 is not the one recorded.',
      more: ['Also: notes.txt was added.'],
    });
  });
});
