import { mkdtemp, readFile, rm, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog, SENT_WITHOUT_OUTCOME, type AuditEntryInput } from '../../../../electron/services/audit';

const SECRETS = {
  password: 'hunter2-relay-password',
  token: 'eyJhbGciOiJIUzI1NiJ9.payload.signature',
  refreshToken: 'refresh-secret-value',
  clientKeyPassword: 'key-password-value',
  clientPrivateKey: '-----BEGIN PRIVATE KEY-----abc',
  appKey: '00112233445566778899AABBCCDDEEFF',
  appSKey: 'FFEEDDCCBBAA99887766554433221100',
  nwkSKey: '0F0E0D0C0B0A09080706050403020100',
};

function commandEntry(overrides: Partial<AuditEntryInput> = {}): AuditEntryInput & { profileId: string } {
  return {
    profileId: 'demo',
    user: 'tech@example.com',
    gatewayId: 'gw-1',
    kind: 'command',
    name: 'reverseSsh',
    risk: 'change',
    request: { sshHost: '127.0.0.1', sshPort: 22, username: 'relay', password: SECRETS.password },
    outcome: 'ok',
    durationMs: 12,
    ...overrides,
  };
}

describe('AuditLog', () => {
  let dataDir: string;
  let clock: number;
  let log: AuditLog;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'audit-'));
    clock = Date.UTC(2026, 0, 15, 12);
    log = new AuditLog({ dataDir, clock: { now: () => clock } });
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('writes one JSON line per entry to <dataDir>/audit/<profileId>.jsonl', async () => {
    await log.append(commandEntry());
    await log.append(commandEntry({ name: 'ping', request: { destination: '8.8.8.8', packetsCount: 4 } }));
    const lines = (await readFile(join(dataDir, 'audit', 'demo.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({ name: 'ping', profileId: 'demo', at: clock });
  });

  it('never writes a secret, however deeply it is nested in the request', async () => {
    await log.append(
      commandEntry({
        name: 'createIntegration',
        request: {
          configuration: {
            clientKeyPassword: SECRETS.clientKeyPassword,
            clientPrivateKey: SECRETS.clientPrivateKey,
          },
          headers: [{ name: 'Authorization', token: SECRETS.token }],
          device: { keys: { appKey: SECRETS.appKey, appSKey: SECRETS.appSKey, nwkSKey: SECRETS.nwkSKey } },
          refreshToken: SECRETS.refreshToken,
          password: SECRETS.password,
        },
        before: { password: SECRETS.password },
        error: `login failed with password=${SECRETS.password} and Bearer ${SECRETS.token}`,
      }),
    );
    const text = await readFile(log.pathOf('demo'), 'utf8');
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });

  it('keeps what is not secret so the entry still says what was done', async () => {
    await log.append(commandEntry());
    const [entry] = await log.read({ profileId: 'demo' });
    expect(entry?.request).toEqual({
      sshHost: '127.0.0.1',
      sshPort: 22,
      username: 'relay',
      password: '[redacted]',
    });
  });

  it('does not change the request object the caller passed', async () => {
    const request = { password: SECRETS.password };
    await log.append(commandEntry({ request }));
    expect(request.password).toBe(SECRETS.password);
  });

  it('appends and never rewrites what is already there', async () => {
    await log.append(commandEntry({ name: 'first' }));
    const before = await readFile(log.pathOf('demo'), 'utf8');
    await log.append(commandEntry({ name: 'second' }));
    const after = await readFile(log.pathOf('demo'), 'utf8');
    expect(after.startsWith(before)).toBe(true);
  });

  it('keeps concurrent appends as whole lines in call order', async () => {
    await Promise.all(
      Array.from({ length: 50 }, (_, index) => log.append(commandEntry({ name: `call-${index}` }))),
    );
    const entries = await log.read({ profileId: 'demo' });
    expect(entries.map((entry) => entry.name)).toEqual(
      Array.from({ length: 50 }, (_, index) => `call-${index}`),
    );
  });

  it('reads entries since a time and of one gateway', async () => {
    await log.append(commandEntry({ name: 'old', gatewayId: 'gw-1' }));
    clock += 60_000;
    const since = clock;
    await log.append(commandEntry({ name: 'other-gateway', gatewayId: 'gw-2' }));
    await log.append(commandEntry({ name: 'new', gatewayId: 'gw-1' }));
    const entries = await log.read({ profileId: 'demo', since, gatewayId: 'gw-1' });
    expect(entries.map((entry) => entry.name)).toEqual(['new']);
  });

  it("reads only one user's entries when asked for a user", async () => {
    await log.append(commandEntry({ user: 'tech@acme.demo', name: 'reboot' }));
    await log.append(commandEntry({ user: 'ops@globex.demo', name: 'upgrade' }));
    const entries = await log.read({ profileId: 'demo', user: 'ops@globex.demo' });
    expect(entries.map((entry) => entry.name)).toEqual(['upgrade']);
  });

  it('keeps each profile in its own file', async () => {
    await log.append(commandEntry({ profileId: 'site-a', name: 'a' }));
    await log.append(commandEntry({ profileId: 'site-b', name: 'b' }));
    expect((await log.read({ profileId: 'site-a' })).map((entry) => entry.name)).toEqual(['a']);
  });

  it('reads an absent log as empty', async () => {
    await expect(log.read({ profileId: 'nobody' })).resolves.toEqual([]);
  });

  it('skips a torn last line left by a crash instead of failing the whole read', async () => {
    await log.append(commandEntry({ name: 'whole' }));
    await appendFile(log.pathOf('demo'), '{"at":1,"profileId":"demo","us');
    expect((await log.read({ profileId: 'demo' })).map((entry) => entry.name)).toEqual(['whole']);
  });

  it('refuses a profile id that would write outside the audit folder', async () => {
    await expect(log.append(commandEntry({ profileId: '../escape' }))).rejects.toThrow(
      /cannot name an audit file/,
    );
  });
});

describe('entries sent before their answer', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'fieldkit-audit-sent-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('reads a sent entry with its outcome as the outcome alone', async () => {
    const log = new AuditLog({ dataDir: folder });
    await log.append(commandEntry({ outcome: 'sent', sendId: 'send-1' }));
    await log.append(commandEntry({ outcome: 'ok', sendId: 'send-1' }));
    expect((await log.read({ profileId: 'demo' })).map((entry) => entry.outcome)).toEqual(['ok']);
  });

  it('reads a sent entry left without an outcome by a stopped app as unknown: re-read the gateway', async () => {
    await new AuditLog({ dataDir: folder }).append(commandEntry({ outcome: 'sent', sendId: 'send-1' }));
    const restarted = new AuditLog({ dataDir: folder });
    expect(await restarted.read({ profileId: 'demo' })).toMatchObject([
      { name: 'reverseSsh', outcome: 'unknown', error: SENT_WITHOUT_OUTCOME },
    ]);
    expect(SENT_WITHOUT_OUTCOME).toMatch(/re-read the gateway/);
  });

  it('leaves out a change still waiting for its answer in this run', async () => {
    const log = new AuditLog({ dataDir: folder });
    await log.append(commandEntry({ outcome: 'sent', sendId: 'send-1' }));
    expect(await log.read({ profileId: 'demo' })).toEqual([]);
  });
});
