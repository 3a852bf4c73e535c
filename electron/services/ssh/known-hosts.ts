import { createHash } from 'node:crypto';
import { z } from 'zod';
import { writeFileAtomic } from '../files/atomic-file';
import { readPrivateFile, UnsafePathError } from '../files/private-files';
import { HostKeyChangedError, HostKeyNotRefusedError, KnownHostsUnreadableError } from './host-key-errors';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { t } from '../../shared/i18n';

/** An OpenSSH SHA-256 fingerprint: `SHA256:` and 43 characters of unpadded base64. */
export const HostKeyFingerprintSchema = z
  .string()
  .regex(/^SHA256:[A-Za-z0-9+/]{43}$/, 'Expected an OpenSSH SHA-256 fingerprint (SHA256:…)');

/** One pinned host key. */
export const KnownHostSchema = z.object({
  fingerprint: HostKeyFingerprintSchema,
  keyType: z.string().min(1).max(64),
  firstSeenAt: z.number().int().nonnegative(),
  replacedAt: z.number().int().nonnegative().optional(),
});
/** One pinned host key. */
export type KnownHost = z.infer<typeof KnownHostSchema>;

/** The known-hosts file: key id (`host:port` or `gateway:<id>`) → pinned key. */
export const KnownHostsFileSchema = z.object({
  version: z.literal(1),
  hosts: z.record(z.string().min(1).max(300), KnownHostSchema),
});
/** The known-hosts file. */
export type KnownHostsFile = z.infer<typeof KnownHostsFileSchema>;

/** What `verify` found: a key seen before, or a new one now trusted on first use. */
export interface HostKeyVerdict {
  keyId: string;
  fingerprint: string;
  keyType: string;
  isNew: boolean;
}

/** The OpenSSH SHA-256 fingerprint of a public key blob: `SHA256:` + unpadded base64. */
export function fingerprintHostKey(publicKeyBlob: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(publicKeyBlob).digest('base64').replace(/=+$/, '')}`;
}

/** The key type named at the start of an SSH public key blob (`ssh-ed25519`, …). */
export function readHostKeyType(publicKeyBlob: Uint8Array): string {
  const bytes = Buffer.from(publicKeyBlob);
  if (bytes.length < 4) return 'unknown';
  const length = bytes.readUInt32BE(0);
  return length > 0 && length <= 64 && bytes.length >= 4 + length
    ? bytes.subarray(4, 4 + length).toString('latin1')
    : 'unknown';
}

/**
 * Pinned SSH host keys in a JSON file of the app data folder: trust on first use, refuse a changed
 * key (`HostKeyChangedError`) until `replace` is called. Writes are atomic and serialised; a file
 * that fails validation is never overwritten (`KnownHostsUnreadableError`).
 */
export class KnownHosts {
  private cache: KnownHostsFile | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** The fingerprint of the last "key changed" refusal per key id (this run only): the one key that may be pinned. */
  private readonly refusedKeys = new Map<string, string>();

  constructor(private readonly options: { path: string; clock?: Pick<Clock, 'now'> }) {}

  /** The pinned key for `keyId`, if any. */
  async lookup(keyId: string): Promise<KnownHost | undefined> {
    return this.serialise(async () => (await this.load()).hosts[keyId]);
  }

  /**
   * Checks a presented key: pins it if `keyId` has none (isNew: true), accepts it if it matches,
   * throws HostKeyChangedError if it differs.
   */
  async verify(keyId: string, publicKeyBlob: Uint8Array): Promise<HostKeyVerdict> {
    const fingerprint = fingerprintHostKey(publicKeyBlob);
    const keyType = readHostKeyType(publicKeyBlob);
    return this.serialise(async () => {
      const file = await this.load();
      const known = file.hosts[keyId];
      if (known) {
        if (known.fingerprint !== fingerprint) {
          this.refusedKeys.set(keyId, fingerprint);
          throw new HostKeyChangedError(keyId, known.fingerprint, fingerprint);
        }
        return { keyId, fingerprint, keyType, isNew: false };
      }
      await this.save({
        ...file,
        hosts: { ...file.hosts, [keyId]: { fingerprint, keyType, firstSeenAt: this.now() } },
      });
      return { keyId, fingerprint, keyType, isNew: true };
    });
  }

  /** Pins `fingerprint` for `keyId`, replacing whatever was pinned (the explicit "replace key" action). */
  async replace(keyId: string, fingerprint: string): Promise<void> {
    const valid = HostKeyFingerprintSchema.parse(fingerprint);
    await this.serialise(async () => {
      const file = await this.load();
      const previous = file.hosts[keyId];
      await this.save({
        ...file,
        hosts: {
          ...file.hosts,
          [keyId]: {
            fingerprint: valid,
            keyType: previous?.keyType ?? 'unknown',
            firstSeenAt: previous?.firstSeenAt ?? this.now(),
            replacedAt: this.now(),
          },
        },
      });
    });
  }

  /**
   * The user's "Replace key" answer to a HostKeyChangedError: pins `fingerprint` for `keyId` only when it is the key
   * the last refusal for `keyId` showed (in this run); anything else throws HostKeyNotRefusedError and pins
   * nothing. A refusal is used up by the replacement.
   */
  async replaceRefusedKey(keyId: string, fingerprint: string): Promise<void> {
    if (this.refusedKeys.get(keyId) !== fingerprint) throw new HostKeyNotRefusedError(keyId);
    this.refusedKeys.delete(keyId);
    await this.replace(keyId, fingerprint);
  }

  /** Removes the pin for `keyId` (the next connection trusts on first use again). */
  async forget(keyId: string): Promise<void> {
    await this.serialise(async () => {
      const file = await this.load();
      const { [keyId]: _removed, ...hosts } = file.hosts;
      await this.save({ ...file, hosts });
    });
  }

  private now(): number {
    return (this.options.clock ?? SYSTEM_CLOCK).now();
  }

  private serialise<T>(task: () => Promise<T>): Promise<T> {
    const result = this.queue.then(task, task);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async load(): Promise<KnownHostsFile> {
    if (this.cache) return this.cache;
    let text: string;
    try {
      text = await readPrivateFile(this.options.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.cache = { version: 1, hosts: {} };
        return this.cache;
      }
      const detail =
        error instanceof UnsafePathError ? t('terminals:knownHostsNotFile') : (error as Error).message;
      throw new KnownHostsUnreadableError(this.options.path, detail);
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new KnownHostsUnreadableError(this.options.path, t('terminals:knownHostsNotJson'));
    }
    const parsed = KnownHostsFileSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new KnownHostsUnreadableError(this.options.path, `${issue?.path.join('.')}: ${issue?.message}`);
    }
    this.cache = parsed.data;
    return this.cache;
  }

  private async save(file: KnownHostsFile): Promise<void> {
    await writeFileAtomic(this.options.path, `${JSON.stringify(file, null, 2)}\n`);
    this.cache = file;
  }
}
