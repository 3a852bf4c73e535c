import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** A key and its self-signed certificate, as PEM, ready for `https.createServer({ key, cert })`. */
export interface SelfSignedCertificate {
  key: Buffer;
  cert: Buffer;
  /** The certificate's SHA-256 fingerprint as Node writes it (`AB:CD:…`), what the app shows and pins. */
  fingerprint256: string;
}

/**
 * Makes a fresh P-256 key and a certificate signed by it for `/CN=<commonName>` and the address 127.0.0.1, valid
 * for two days, with openssl (what a customer's server with its own certificate looks like). Leaves no file behind.
 */
export async function makeSelfSignedCertificate(commonName: string): Promise<SelfSignedCertificate> {
  const folder = await mkdtemp(join(tmpdir(), 'fieldkit-certificate-'));
  try {
    const keyPath = join(folder, 'key.pem');
    const certPath = join(folder, 'cert.pem');
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyPath,
      '-out',
      certPath,
      '-days',
      '2',
      '-subj',
      `/CN=${commonName}`,
      '-addext',
      'subjectAltName=IP:127.0.0.1',
    ]);
    const [key, cert] = await Promise.all([readFile(keyPath), readFile(certPath)]);
    return { key, cert, fingerprint256: new X509Certificate(cert).fingerprint256 };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
