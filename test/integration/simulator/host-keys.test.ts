import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ssh2 from 'ssh2';
import { describe, expect, it } from 'vitest';
import { deriveHostKey } from '../../../simulator/ssh/host-keys';

describe('deriveHostKey', () => {
  it('gives the same key for the same seed and id', () => {
    expect(deriveHostKey(7, 'gateway:a').publicKeyLine).toBe(deriveHostKey(7, 'gateway:a').publicKeyLine);
  });

  it('gives different keys for different seeds or ids', () => {
    const fingerprints = new Set([
      deriveHostKey(7, 'gateway:a').fingerprint,
      deriveHostKey(8, 'gateway:a').fingerprint,
      deriveHostKey(7, 'gateway:b').fingerprint,
    ]);
    expect(fingerprints.size).toBe(3);
  });

  it('produces a private key that ssh2 parses to the same public key', () => {
    const hostKey = deriveHostKey('demo', 'relay');
    const parsed = ssh2.utils.parseKey(hostKey.privateKey);
    if (parsed instanceof Error) throw parsed;
    expect(parsed.type).toBe('ssh-ed25519');
    expect(parsed.getPublicSSH().equals(hostKey.publicKeyBlob)).toBe(true);
  });

  it('produces a fingerprint equal to what ssh-keygen prints for the key', async () => {
    const hostKey = deriveHostKey('demo', 'gateway:b');
    const directory = await mkdtemp(join(tmpdir(), 'fieldkit-hostkey-'));
    try {
      const keyPath = join(directory, 'key');
      await writeFile(keyPath, hostKey.privateKey, { mode: 0o600 });
      const listed = spawnSync('ssh-keygen', ['-lf', keyPath], { encoding: 'utf8' });
      expect(listed.stdout.split(' ')[1]).toBe(hostKey.fingerprint);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
