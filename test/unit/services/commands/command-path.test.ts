import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../../..');

/** Every TypeScript source of the app (electron/), as [path from the repository, text]. */
function sources(): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) found.push([relative(ROOT, path), readFileSync(path, 'utf8')]);
    }
  };
  walk(join(ROOT, 'electron'));
  return found;
}

/** Each line of the sources matching `pattern`, comments left out, as `path: line`. */
function linesMatching(pattern: RegExp): string[] {
  return sources().flatMap(([path, text]) =>
    text
      .split('\n')
      .filter((line) => pattern.test(line) && !/^\s*(\*|\/\/)/.test(line))
      .map((line) => `${path}: ${line.trim()}`),
  );
}

// A gateway command reaches `fetch` only as ApiClient.command ← Session.command ← ServerSessionPort.sendGatewayCommand
// ← the app's one transport, and that transport is only ever the transport of a CommandService.
describe('the path of a gateway command from IPC to fetch', () => {
  it('has the API client send commands only for the session', () => {
    expect(linesMatching(/\bclient\.command\(/)).toEqual([
      expect.stringMatching(/^electron\/services\/session\/session\.ts: /),
    ]);
  });

  it('has the session send commands only as the session port wire', () => {
    expect(linesMatching(/\bsession\.command\(/)).toEqual([
      expect.stringMatching(/^electron\/app\/default-server-session\.ts: /),
    ]);
  });

  it('has the wire called in one place: the transport the app hands to command services', () => {
    expect(linesMatching(/\.sendGatewayCommand\(/)).toEqual([
      expect.stringMatching(
        /^electron\/app\/field-kit-services\.ts: this\.sessions\.requireSession\(\)\.sendGatewayCommand/,
      ),
    ]);
    expect(
      linesMatching(/gatewayTransport\b/).filter(
        (line) => !/^\S+: (readonly )?gatewayTransport(: GatewayCommander;|,)$/.test(line),
      ),
    ).toEqual([
      'electron/app/domains/engines.ts: return { commander: dependencies.gatewayTransport, profileId, user, audit, journal, ...limits };',
      'electron/app/domains/tasks.ts: const meter = new RfMeter({ commander: dependencies.gatewayTransport, gatewayId, intervalMs });',
      'electron/app/field-kit-services.ts: this.gatewayTransport = {',
      'electron/app/field-kit-services.ts: transport: this.gatewayTransport,',
      'electron/app/field-kit-services.ts: gatewayTransport: this.gatewayTransport,',
    ]);
  });

  it('has the engines use the transport they are given only as the transport of their command service', () => {
    const uses = linesMatching(/options\.commander\b/);
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) expect(use).toMatch(/transport: options\.commander\b/);
    expect(linesMatching(/\btransport\.command\(/)).toEqual([
      expect.stringMatching(/^electron\/services\/commands\/command-service\.ts: /),
    ]);
  });
});
