import { afterEach, describe, expect, it } from 'vitest';
import {
  buildReportModel,
  renderReportHtml,
  visitFromJournal,
  type PackedGatewayFacts,
} from '../../../../electron/services/reports';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';
import type { DisplayLanguage } from '../../../../electron/shared/i18n';
import type { AcceptanceCard } from '../../../../electron/shared/visit/acceptance-card';
import { FACTORY_TIME } from '../../../helpers/factories';
import { ManualClock } from '../../../helpers/manual-clock';
import { openTestVisit, type TestVisit } from '../../../helpers/visit-journal';

// Page one's findings and a section's words, read from a real visit journal: the checks before leaving, the
// serial triage's console commands and the site pack's status.

const GATEWAY = { gatewayId: 'gw-1', name: 'acme-gw-0001', mac: '647FDAFFFE000000' };
const PACKED: PackedGatewayFacts = {
  id: 'gw-1',
  name: 'acme-gw-0001',
  mac: '647FDAFFFE000000',
  model: 'KONA Micro',
  bspVersion: '6.0.2',
  status: 'ONLINE',
  asOf: FACTORY_TIME - 60_000,
};

let visit: TestVisit | undefined;
afterEach(async () => {
  await visit?.remove();
  visit = undefined;
});

async function open(): Promise<TestVisit> {
  visit = await openTestVisit(
    { site: 'Harbour roof', arrivedAt: FACTORY_TIME },
    new ManualClock(FACTORY_TIME),
  );
  return visit;
}

/** A finished card of the gateway: cellular and position judged as given, the rest go. */
function card(
  verdict: AcceptanceCard['verdict'],
  items: { cellular: 'go' | 'warn' | 'no-go'; position: 'go' | 'no-go' },
  minute = 1,
): AcceptanceCard {
  return {
    gatewayId: 'gw-1',
    gatewayName: 'acme-gw-0001',
    source: 'server',
    startedAt: FACTORY_TIME,
    takenAt: FACTORY_TIME + minute * 60_000,
    verdict,
    items: [
      {
        id: 'cellular',
        verdict: items.cellular,
        findings:
          items.cellular === 'go'
            ? ['Signal good (−81 dBm).']
            : ['Weak signal (−115 dBm).', 'Registered on a roaming network'],
      },
      {
        id: 'position',
        verdict: items.position,
        findings: items.position === 'go' ? ['GPS fix held.'] : [],
      },
    ],
  };
}

function modelOf(test: TestVisit, language: DisplayLanguage = 'en', fromPack: PackedGatewayFacts[] = []) {
  return buildReportModel(
    visitFromJournal(test.lines(), {
      technician: 'tech@example.com',
      profileId: 'demo',
      fromPack,
      now: FACTORY_TIME + 3_600_000,
    }),
    { timeZone: 'UTC', generatedAt: FACTORY_TIME, language },
  );
}

const findingsOf = (test: TestVisit) => modelOf(test).gateways.map((gateway) => gateway.findings);

describe('page one of a visit whose gateway was checked before leaving', () => {
  it('names what a no-go card found, in the card’s words, one sentence each', async () => {
    const test = await open();
    await test.append({
      kind: 'acceptance',
      gateway: GATEWAY,
      card: card('no-go', { cellular: 'no-go', position: 'no-go' }),
    });
    expect(findingsOf(test)).toEqual([
      [
        {
          tone: 'failed',
          words: 'fault found',
          detail:
            'Cellular no-go at the check before leaving — Weak signal (−115 dBm). Registered on a roaming ' +
            'network. Position no-go at the check before leaving.',
        },
      ],
    ]);
  });

  it('says a warning card found a warning, naming the item', async () => {
    const test = await open();
    await test.append({
      kind: 'acceptance',
      gateway: GATEWAY,
      card: card('warn', { cellular: 'warn', position: 'go' }),
    });
    expect(findingsOf(test)).toEqual([
      [
        expect.objectContaining({
          words: 'warning found',
          detail: expect.stringMatching(/^Cellular warn at the check before leaving — Weak signal/),
        }),
      ],
    ]);
  });

  it('says fixed, naming what was, when a later card is go', async () => {
    const test = await open();
    await test.append(
      { kind: 'acceptance', gateway: GATEWAY, card: card('no-go', { cellular: 'go', position: 'no-go' }) },
      { kind: 'acceptance', gateway: GATEWAY, card: card('go', { cellular: 'go', position: 'go' }, 5) },
    );
    expect(findingsOf(test)).toEqual([
      [{ tone: 'ok', words: 'fixed', detail: 'Position no-go at the check before leaving.' }],
    ]);
  });

  it('says inspected and healthy for a go card alone, unknown for a check never finished', async () => {
    const test = await open();
    await test.append({
      kind: 'acceptance',
      gateway: GATEWAY,
      card: card('go', { cellular: 'go', position: 'go' }),
    });
    expect(findingsOf(test)).toEqual([[{ tone: 'ok', words: 'inspected, healthy' }]]);

    const cancelled = await openTestVisit({ arrivedAt: FACTORY_TIME }, new ManualClock(FACTORY_TIME));
    try {
      await cancelled.append({
        kind: 'acceptance',
        gateway: GATEWAY,
        card: { ...card('not-finished', { cellular: 'go', position: 'go' }), items: [] },
      });
      expect(findingsOf(cancelled)).toEqual([
        [{ tone: 'unknown', words: 'unknown', detail: 'the check before leaving was not finished' }],
      ]);
    } finally {
      await cancelled.remove();
    }
  });

  it('puts the no-go before a change that went well', async () => {
    const test = await open();
    await test.append(
      {
        kind: 'wizard-outcome',
        runId: 'r-1',
        wizard: 'pingTarget',
        gateway: GATEWAY,
        outcome: 'changed',
      },
      { kind: 'acceptance', gateway: GATEWAY, card: card('no-go', { cellular: 'no-go', position: 'go' }) },
    );
    const words = findingsOf(test)[0]?.map((finding) => finding.words);
    expect(words?.[0]).toBe('fault found');
    expect(words).not.toContain('only inspected');
  });
});

describe('a gateway section', () => {
  it('says no command went through the server and counts its serial triage’s console commands', async () => {
    const test = await open();
    await test.append({
      kind: 'triage',
      gateway: GATEWAY,
      result: {
        terminalId: 't-1',
        title: 'acme-gw-0001 · 115200 8N1',
        startedAt: FACTORY_TIME,
        finishedAt: FACTORY_TIME + 10_000,
        outcome: 'complete',
        commands: ['ip addr', 'ip route', 'uptime'].map((command) => ({
          command,
          outcome: 'ok' as const,
          exitCode: 0,
          durationMs: 80,
          timeoutMs: 15_000,
        })),
        health: assessHealth({}),
      },
    });
    const html = await renderReportHtml(modelOf(test));
    expect(html).toContain(
      'No commands were sent to the gateway through the server. 3 commands were run on the serial console for the serial triage above.',
    );
    expect(html).not.toContain('No commands were run.');
  });

  it('writes the site pack’s status in the report’s words, not as the API spells it', async () => {
    const test = await open();
    await test.append({ kind: 'note', text: 'Mast checked', gateway: GATEWAY });
    expect(modelOf(test, 'en', [PACKED]).sections[0]?.pack?.text).toContain('status Online,');
    const french = modelOf(test, 'fr', [PACKED]).sections[0]?.pack?.text;
    expect(french).toContain('état En ligne,');
    expect(french).not.toContain('ONLINE');
  });
});
