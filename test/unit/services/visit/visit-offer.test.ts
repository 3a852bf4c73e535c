import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeOpenVisitOffer, Visits } from '../../../../electron/services/visit';
import { setLanguage } from '../../../../electron/shared/i18n';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';
import { FACTORY_TIME } from '../../../helpers/factories';
import { ManualClock } from '../../../helpers/manual-clock';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);

let dataDir: string;
const opened: Visits[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-visit-offer-'));
});

afterEach(async () => {
  setLanguage('en');
  for (const visits of opened.splice(0)) await visits.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});

async function start(): Promise<Visits> {
  const visits = new Visits({ dataDir, clock: new ManualClock(FACTORY_TIME) });
  opened.push(visits);
  await visits.load();
  return visits;
}

function offerOf(visits: Visits): string {
  const open = visits.current()!;
  return describeOpenVisitOffer(open, visits.entries(open.id));
}

describe('the open visit offered again at start-up', () => {
  it('says what the visit holds: notes typed, photos, triages with their gateway, measurements', async () => {
    const first = await start();
    await first.open({ site: 'Harbour warehouse roof' });
    await first.update({ notes: 'Antenna cable checked' });
    await first.attachPhoto({ bytes: PNG, caption: 'Mast' });
    await first.append({
      kind: 'triage',
      gateway: { gatewayId: 'gw-13', name: 'acme-gw-0013', typed: 'acme-gw-0013' },
      result: {
        terminalId: 't-1',
        title: 'acme-gw-0013 · 115200 8N1',
        startedAt: FACTORY_TIME,
        finishedAt: FACTORY_TIME + 10_000,
        outcome: 'complete',
        commands: [],
        health: assessHealth({}),
      },
    });
    await first.append({
      kind: 'measurement',
      gateway: { gatewayId: 'gw-13' },
      measurement: 'ping',
      values: { destination: '8.8.8.8' },
    });
    await first.shutdown();

    const restarted = await start();
    expect(offerOf(restarted)).toMatch(
      /^The visit at Harbour warehouse roof, started .+, is still open and goes on with everything in it: the notes typed, 1 photo, 1 serial triage \(acme-gw-0013\), 1 measurement\. End it under Site report when you leave\.$/,
    );
  });

  it('names a visit the first action opened as not named yet, and one holding only its opening as empty', async () => {
    const visits = await start();
    await visits.append({ kind: 'note', text: 'Cabinet door forced' });
    expect(offerOf(visits)).toMatch(/^The visit not named yet, started .+, is still open .*: 1 note\./);
    await visits.close();
    await visits.open({ site: 'South mast' });
    expect(offerOf(visits)).toContain('everything in it: nothing recorded yet.');
  });

  it('says the offer in the language of the screen: German', async () => {
    const visits = await start();
    await visits.open({ site: 'Hafenlager Dach' });
    await visits.update({ notes: 'Antennenkabel geprüft' });
    await visits.attachPhoto({ bytes: PNG, caption: 'Mast' });
    await visits.append({ kind: 'note', text: 'Schranktür aufgebrochen' });
    await visits.append({ kind: 'note', text: 'Kabel neu verlegt' });
    setLanguage('de');
    const offer = offerOf(visits);
    expect(offer).toMatch(
      /^Der Einsatz bei Hafenlager Dach, begonnen am .+, ist noch offen und wird mit allem fortgesetzt, was er enthält: die eingegebenen Notizen, 1 Foto, 2 Notizen\. Beenden Sie ihn unter Einsatzbericht, wenn Sie gehen\.$/,
    );
    await visits.close();
    await visits.open({ site: 'Südmast' });
    expect(offerOf(visits)).toContain('was er enthält: noch nichts aufgezeichnet.');
  });
});
