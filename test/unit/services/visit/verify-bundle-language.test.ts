import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../../electron/shared/i18n';
import { verifyBundle } from '../../../../electron/services/visit';

describe("a bundle's verification problems", () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'verify-language-'));
  });
  afterEach(async () => {
    setLanguage('en');
    await rm(folder, { recursive: true, force: true });
  });

  it('are written in the language the screen shows, file names kept as they are', async () => {
    setLanguage('de');
    expect((await verifyBundle(folder)).problems).toEqual([
      'manifest.json fehlt: Dies ist kein Berichtsordner',
    ]);
    await writeFile(join(folder, 'manifest.json'), '{"not":"a manifest"}');
    setLanguage('fr');
    expect((await verifyBundle(folder)).problems).toEqual([
      "manifest.json a été modifié : ce n'est pas un manifeste de dossier",
    ]);
  });

  it('stay in English by default, as the command line prints them', async () => {
    expect((await verifyBundle(folder)).problems).toEqual(['manifest.json is missing: this is not a bundle']);
  });
});
