import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';

/** An ed25519 host key in the forms ssh2 and OpenSSH use. */
export interface HostKey {
  /** `-----BEGIN OPENSSH PRIVATE KEY-----` text, unencrypted, accepted by ssh2's `hostKeys`. */
  privateKey: string;
  /** The SSH wire blob of the public key (`string "ssh-ed25519" || string key`). */
  publicKeyBlob: Buffer;
  /** `ssh-ed25519 AAAA…` as in `known_hosts` and `authorized_keys`. */
  publicKeyLine: string;
  /** `SHA256:<base64 without padding>`, as `ssh-keygen -lf` prints it. */
  fingerprint: string;
}

const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const KEY_TYPE = 'ssh-ed25519';

/**
 * Derives an ed25519 host key from `seed` and `id`: the same pair always gives the same key, so the
 * simulator's host keys survive restarts and tests can pin them.
 */
export function deriveHostKey(seed: string | number, id: string): HostKey {
  const privateSeed = createHash('sha256').update(`oam-field-kit host key\0${seed}\0${id}`).digest();
  const privateKeyObject = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, privateSeed]),
    format: 'der',
    type: 'pkcs8',
  });
  const jwk = createPublicKey(privateKeyObject).export({ format: 'jwk' });
  const publicKey = Buffer.from(jwk.x ?? '', 'base64url');
  const publicKeyBlob = Buffer.concat([sshString(KEY_TYPE), sshString(publicKey)]);
  return {
    privateKey: encodeOpenSshPrivateKey(privateSeed, publicKey, publicKeyBlob, id),
    publicKeyBlob,
    publicKeyLine: `${KEY_TYPE} ${publicKeyBlob.toString('base64')}`,
    fingerprint: fingerprintOf(publicKeyBlob),
  };
}

/** The OpenSSH SHA-256 fingerprint of a public key blob: `SHA256:` + unpadded base64. */
export function fingerprintOf(publicKeyBlob: Uint8Array): string {
  return `SHA256:${createHash('sha256').update(publicKeyBlob).digest('base64').replace(/=+$/, '')}`;
}

// openssh-key-v1 (PROTOCOL.key in OpenSSH): ssh2 reads ed25519 private keys only in this format.
function encodeOpenSshPrivateKey(
  privateSeed: Buffer,
  publicKey: Buffer,
  publicKeyBlob: Buffer,
  comment: string,
): string {
  const checkInt = privateSeed.readUInt32BE(0);
  const check = Buffer.alloc(8);
  check.writeUInt32BE(checkInt, 0);
  check.writeUInt32BE(checkInt, 4);
  const unpadded = Buffer.concat([
    check,
    sshString(KEY_TYPE),
    sshString(publicKey),
    sshString(Buffer.concat([privateSeed, publicKey])),
    sshString(comment),
  ]);
  const paddingLength = (8 - (unpadded.length % 8)) % 8;
  const padding = Buffer.from(Array.from({ length: paddingLength }, (_, index) => index + 1));
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0', 'latin1'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    uint32(1),
    sshString(publicKeyBlob),
    sshString(Buffer.concat([unpadded, padding])),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
  return `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`;
}

function sshString(value: string | Buffer): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  return Buffer.concat([uint32(bytes.length), bytes]);
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value, 0);
  return bytes;
}
