import { describe, expect, it } from 'vitest';
import { buildSiteReportHtml } from '../../../../electron/services/reports';
import { assessHealth } from '../../../../electron/shared/terminal/triage-health';
import {
  FACTORY_TIME,
  makeAuditEntry,
  makeSessionLines,
  makeSiteVisit,
  makeTriageLines,
} from '../../../helpers/factories';
import { expectOneTimeFormat } from '../../../helpers/report-times';

const AT = FACTORY_TIME;
const SECRET = 'relay-password-8842';

describe('buildSiteReportHtml', () => {
  it('shows each setting before → after with the outcome on the same row, and the checks that verified it', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([
        makeAuditEntry({
          kind: 'wizard',
          name: 'firewall',
          before: { 'ssh.enabled': true },
          after: { 'ssh.enabled': false },
          response: {
            outcome: 'applied',
            checks: [{ name: 'Read back', ok: true, detail: 'SSH refused' }],
            labels: { 'ssh.enabled': 'SSH access' },
          },
        }),
      ]),
      { timeZone: 'UTC' },
    );
    expect(html).toContain(
      '<tr><td>SSH access</td><td><code>yes</code> → <code>no</code></td><td><span class="verified">changed and verified</span></td></tr>',
    );
    expect(html).toContain('✔ Read back: SSH refused');
    expect(html).toContain(
      '12:00 Firewall on Kona Macro 7: <span class="verified">changed and verified</span>',
    );
  });

  it('says a rolled-back change was rolled back, and why, on page one and in the gateway section', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([
        makeAuditEntry({
          kind: 'wizard',
          name: 'cellular',
          outcome: 'failed',
          before: { 'apn[0].name': 'internet' },
          after: { 'apn[0].name': 'internet.wrong' },
          error: 'Verification failed: the data call did not connect. The previous settings were put back.',
          response: {
            outcome: 'rolled-back',
            checks: [{ name: 'Data call', ok: false, detail: 'not connected' }],
          },
        }),
      ]),
      { timeZone: 'UTC' },
    );
    const pageOne = html.slice(0, html.indexOf('</section>'));
    expect(pageOne).toContain(
      '<td><strong>Kona Macro 7</strong><br/><span class="mac">64:7F:DA:FF:FE:00:1C:AD</span></td><td><p>Cellular modem and APN: <span class="rolled-back">rolled back</span> — Data call: not connected</p></td>',
    );
    expect(html).toContain('<td><span class="rolled-back">rolled back</span></td></tr>');
    expect(html).toContain('<p>Why: Data call: not connected</p>');
  });

  it('holds the visit facts, the acknowledgement with both names and the notes, and the photos embedded', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([], {
        site: 'Harbour roof',
        customer: 'Acme Ports',
        technicianName: 'Dana Field',
        customerRepresentative: 'Sam Owner',
        notes: 'Antenna cable replaced',
        photos: [
          { id: 'p1', caption: 'Mast <after>', mimeType: 'image/png', base64: 'iVBORw0KGgo=', addedAt: AT },
        ],
      }),
      { timeZone: 'UTC' },
    );
    expect(html).toContain('<tr><th>Customer</th><td>Acme Ports</td></tr>');
    expect(html).toContain('<tr><th>Arrival</th><td>15 Jan 2026, 12:00</td></tr>');
    expect(html).toContain('<tr><th>Departure</th><td>15 Jan 2026, 13:00</td></tr>');
    expect(html).toContain('<tr><th>Times</th><td>UTC (24-hour clock)</td></tr>');
    expect(html).toContain('<tr><td>Name: Dana Field</td><td>Name: Sam Owner</td></tr>');
    expect(html).toContain('<div class="notes">Antenna cable replaced</div>');
    expect(html).toContain('<img src="data:image/png;base64,iVBORw0KGgo=" alt="Mast &lt;after>"/>');
  });

  it('folds repeated reads into one line with the count and the time span', async () => {
    const reads = Array.from({ length: 48 }, (_, index) =>
      makeAuditEntry({ name: 'getWmCallStatistics', risk: 'read', at: AT + index * 2_500 }),
    );
    const html = await buildSiteReportHtml(makeSiteVisit(reads), { timeZone: 'UTC' });
    expect(html).toContain(
      '<td>read 48 times, 12:00–12:01</td><td>Read the data call status <code class="api-hint">getWmCallStatistics</code>',
    );
    expect(html.match(/getWmCallStatistics/g)).toHaveLength(1);
  });

  it('never names a gateway by its id alone', async () => {
    const html = await buildSiteReportHtml(makeSiteVisit([makeAuditEntry({ gatewayId: 'gw-9' })]), {
      timeZone: 'UTC',
    });
    expect(html).toContain('Gateway (name not known, id gw-9)');
  });

  it('never shows a secret, whether under a secret key, in an error text or given as known', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit(
        [
          makeAuditEntry({ name: 'reverseSsh', request: { username: 'relay', password: SECRET } }),
          makeAuditEntry({ name: 'login', error: `refused with password=${SECRET}` }),
          makeAuditEntry({
            kind: 'wizard',
            name: 'cellular',
            before: { userName: 'x', password: SECRET },
            after: { password: 'other' },
          }),
        ],
        { notes: `the label says ${SECRET}` },
      ),
      { knownSecrets: [SECRET] },
    );
    expect(html).not.toContain(SECRET);
    expect(html).toContain('[redacted]');
  });

  it('escapes markup that comes from the data', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([makeAuditEntry({ name: '<script>alert(1)</script>' })]),
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;script>alert(1)&lt;/script>');
  });

  it('lists the RF best values, the pings and links to the terminal logs', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([], {
        rf: [
          {
            gatewayId: 'gw-1',
            samples: [{ at: AT, signalStrength: -81, sinr: 18, rsrq: -9, ecio: -6 }],
            best: {
              signalStrength: { value: -77, at: AT },
              sinr: { value: 21, at: AT },
              rsrq: { value: -8, at: AT },
              ecio: { value: -5, at: AT },
            },
          },
        ],
        pings: [{ at: AT, gatewayId: 'gw-1', destination: '8.8.8.8', packetsSent: 4, packetsReceived: 4 }],
        journalLines: makeSessionLines([
          { label: 'SSH session', path: '/home/tech/logs/gw 1.log', gatewayId: 'gw-1' },
        ]),
      }),
    );
    expect(html).toContain('<td>Signal strength</td><td>-77 dBm at ');
    expect(html).toContain('<td>8.8.8.8</td>');
    // Session logs are attached to the bundle and named by their place in it: no file:// link.
    expect(html).toContain('<li>SSH session<br/><code>logs/gw 1.log</code></li>');
    expect(html).not.toContain('file://');
  });

  it('is self-contained: no script and no external resource', async () => {
    const html = await buildSiteReportHtml(makeSiteVisit([makeAuditEntry()]));
    expect(html).not.toMatch(/<script|<link|src="(?!data:)|@import|https?:\/\//);
  });

  it('shows a serial triage per gateway with its faults first and what each part showed', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([], {
        journalLines: makeTriageLines([
          {
            terminalId: 't-1',
            title: 'gw-1 · 115200 8N1',
            gatewayId: 'gw-1',
            startedAt: AT,
            finishedAt: AT + 20_000,
            outcome: 'stopped',
            problem: 'The serial port went away during diagnostics (Disconnected: <unplugged>).',
            consoleLeft:
              'The console may still be logged in as root: the port went away before diagnostics could log out.',
            commands: [
              { command: 'ip addr', outcome: 'ok', exitCode: 0, durationMs: 80, timeoutMs: 15_000 },
              {
                command: 'ping -c 3 -W 2 8.8.8.8',
                outcome: 'timed-out',
                exitCode: null,
                durationMs: 20_000,
                timeoutMs: 20_000,
              },
            ],
            health: assessHealth({
              addresses: {
                command: 'ip addr',
                output: '2: eth0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1500 state DOWN\n',
                exitCode: 0,
              },
            }),
          },
        ]),
      }),
      { timeZone: 'UTC' },
    );
    const section = html.slice(html.indexOf('<h3>Measurements</h3>'));
    expect(section).toContain('<h4>Serial triage: Kona Macro 7 · ');
    expect(section).toContain(
      '<p class="meta">The console may still be logged in as root: the port went away before diagnostics could log out.</p>',
    );
    expect(section).toContain(
      '<li><span class="failed">fault</span> Ethernet eth0 has no link (no carrier: check the cable and the switch port).</li>',
    );
    expect(section).toContain(
      'Stopped early: The serial port went away during diagnostics (Disconnected: &lt;unplugged>).',
    );
    expect(section).toContain('<td>WAN</td><td><span class="unknown">unknown</span></td>');
    expect(section).toContain('<code>ping -c 3 -W 2 8.8.8.8</code> timed out after 20 s');
  });

  it('writes every time one way, 24-hour, with the time zone said once on page one', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit(
        [
          makeAuditEntry({ kind: 'wizard', name: 'reboot', risk: undefined, durationMs: 90_000 }),
          ...Array.from({ length: 5 }, (_, index) =>
            makeAuditEntry({ name: 'getWmCallStatistics', risk: 'read', at: AT + 600_000 + index * 30_000 }),
          ),
          // Past midnight in Berlin: the time carries its date.
          makeAuditEntry({ name: 'getGatewayInfo', risk: 'read', at: AT + 11 * 3_600_000 + 120_000 }),
        ],
        {
          endedAt: AT + 12 * 3_600_000,
          photos: [{ id: 'p', caption: 'Mast', mimeType: 'image/png', base64: 'iVBORw0KGgo=', addedAt: AT }],
          fromPack: [
            {
              id: 'gw-1',
              name: 'Kona Macro 7',
              mac: '647FDAFFFE001CAD',
              status: 'ONLINE',
              asOf: AT - 86_400_000,
            },
          ],
        },
      ),
      { timeZone: 'Europe/Berlin', generatedAt: AT + 12 * 3_600_000 },
    );
    expect(expectOneTimeFormat(html)).toEqual(
      expect.arrayContaining(['15 Jan 2026, 13:00', '16 Jan 2026, 01:00', '16 Jan 2026, 00:02']),
    );
    expect(html).toContain('<tr><th>Times</th><td>Europe/Berlin, UTC+01:00 (24-hour clock)</td></tr>');
    expect(html.match(/Europe\/Berlin/g)).toHaveLength(1);
    expect(html).toContain('<td>read 5 times, 13:10–13:12</td>');
    expect(html).toContain('<p class="change-title">13:00 Reboot on Kona Macro 7:');
  });

  it('tells the reads the app made to follow a restart through the task, never as failed commands', async () => {
    const poll = (offset: number, outcome: 'ok' | 'failed') =>
      makeAuditEntry({
        at: AT + offset,
        name: 'getLastInstallUpgradeStatus',
        risk: 'read',
        runId: 'run-1',
        automatic: true,
        outcome,
        ...(outcome === 'failed' ? { error: 'The gateway did not answer in time' } : {}),
      });
    const html = await buildSiteReportHtml(
      makeSiteVisit([
        poll(1_000, 'ok'),
        makeAuditEntry({ at: AT + 2_000, name: 'upgradeSoftware', risk: 'disruptive', runId: 'run-1' }),
        ...Array.from({ length: 12 }, (_, index) => poll(5_000 + index * 3_000, 'ok')),
        poll(45_000, 'failed'),
        poll(170_000, 'ok'),
        makeAuditEntry({
          kind: 'wizard',
          name: 'upgradeSoftware',
          risk: undefined,
          runId: 'run-1',
          durationMs: 180_000,
          response: { message: 'Installed every package' },
        }),
      ]),
      { timeZone: 'UTC' },
    );
    expect(html).toContain(
      'Followed the restart: 15 reads (Read the last install or upgrade outcome), 1 unanswered while it ' +
        'restarted; the gateway answered again at 12:03.',
    );
    expect(html).not.toContain('<code>getLastInstallUpgradeStatus</code>');
    expect(html).not.toContain('class="failed"');
    expect(html).not.toContain('did not answer in time');
    // The upgrade's own command is told by its change line, not listed again under the commands run.
    expect(html).not.toContain('<code>upgradeSoftware</code>');
  });

  it('puts a serial session in the section of the gateway its Gateway field names, by name or MAC', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([], {
        gateways: [{ id: 'gw-1', name: 'acme-gw-0013', mac: '647FDAFFFE00000C' }],
        journalLines: makeSessionLines([
          { label: 'acme-gw-0013 · 115200 8N1', path: '/logs/acme-gw-0013.log', typed: 'acme-gw-0013' },
          { label: 'console 2', path: '/logs/console-2.log', typed: '64:7F:DA:FF:FE:00:00:0C' },
          { label: 'shed · 9600 8N1', path: '/logs/shed.log', typed: 'shed gateway' },
        ]),
      }),
      { timeZone: 'UTC' },
    );
    expect(html).not.toContain('Not tied to a gateway');
    const section = html.slice(html.indexOf('<section class="gateway">'));
    const own = section.slice(0, section.indexOf('</section>'));
    expect(own).toContain('<h2>acme-gw-0013 · ');
    expect(own).toContain('logs/acme-gw-0013.log');
    expect(own).toContain('logs/console-2.log');
    expect(own).not.toContain('logs/shed.log');
    // Named but matching no gateway of the visit: a section under the name typed, said to be unmatched.
    const shed = html.slice(html.indexOf('<h2>shed gateway</h2>'));
    expect(shed).toMatch(
      /^<h2>shed gateway<\/h2>\s*<p class="meta">\s*Named in a terminal session; not matched to a gateway of the server or the site pack.\s*<\/p>/,
    );
  });

  it('names the setting of a fleet ping target change and the value that was sent', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([
        makeAuditEntry({
          kind: 'fleet',
          name: 'pingTarget',
          risk: 'change',
          request: { kind: 'pingTarget', ipAddr: '1.1.1.1' },
          before: '8.8.8.8',
          after: '1.1.1.1',
          response: { message: 'ping target set and read back' },
        }),
      ]),
      { timeZone: 'UTC' },
    );
    expect(html).toContain('<p>Sent: Ping target: 1.1.1.1</p>');
    expect(html).toContain(
      '<tr><td>Ping target</td><td><code>8.8.8.8</code> → <code>1.1.1.1</code></td><td><span class="verified">changed and verified</span></td></tr>',
    );
    expect(html).not.toContain('<tr><td>—</td>');
  });

  it('shows a nested fleet change setting by setting in words, only what changed, with no JSON', async () => {
    const firewall = (burstLimit: number) => ({
      enabled: true,
      doSPrevention: { enabled: true, perMinLimit: 25, burstLimit },
      filters: [],
    });
    const html = await buildSiteReportHtml(
      makeSiteVisit([
        makeAuditEntry({ kind: 'fleet', name: 'firewall', before: firewall(100), after: firewall(78) }),
      ]),
      { timeZone: 'UTC' },
    );
    expect(html).toContain(
      '<td>DoS prevention › Burst limit</td><td><code>100</code> → <code>78</code></td>',
    );
    expect(html).toContain('Fleet: firewall on Kona Macro 7');
    expect(html).not.toContain('Limit per minute');
    expect(html).not.toContain('{"');
  });

  it('shows the request of a command as labelled fields, and JSON only for what is nested too deep', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([
        makeAuditEntry({
          name: 'updateWmApn',
          risk: 'change',
          request: { name: 'iot.wrong', type: 0, idxModem: 1, idx: 0, username: null },
        }),
        makeAuditEntry({
          name: 'modifyWmPDP_Profiles',
          risk: 'change',
          request: { a: { b: { c: { d: { e: 'deep' } } } } },
        }),
      ]),
      { timeZone: 'UTC' },
    );
    expect(html).toContain(
      '<ul class="fields"><li>Name: <code>iot.wrong</code></li><li>Type: <code>0</code></li><li>Modem index: <code>1</code></li><li>Index: <code>0</code></li><li>Username: <code>(none)</code></li></ul>',
    );
    expect(html).toContain('<li>A › B › C › D: <pre><code>{\n  "e": "deep"\n}</code></pre></li>');
    expect(html).not.toContain('{"name"');
  });

  it('says a gateway where nothing was changed was only inspected', async () => {
    const html = await buildSiteReportHtml(makeSiteVisit([]));
    expect(html).toMatch(/>only inspected<\/span>/);
    // The section says what is true of its changes alone: a health check may still have found a fault.
    expect(html).toContain('<p>No setting was changed.</p>');
  });
});

describe('buildSiteReportHtml with hostile times', () => {
  it('writes a last seen time no Date holds, as a stored site pack may have it, as unknown', async () => {
    const html = await buildSiteReportHtml(
      makeSiteVisit([], {
        fromPack: [
          {
            id: 'gw-1',
            name: 'Kona',
            mac: '647FDAFFFE001CAD',
            status: 'ONLINE',
            lastSeenTime: 9e15,
            asOf: AT,
          },
        ],
      }),
      { timeZone: 'UTC', generatedAt: AT },
    );
    expect(html).toContain('last seen unknown time,');
  });
});
