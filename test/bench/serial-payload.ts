import { createHash } from 'node:crypto';
import { generateFloodChunks } from '../../simulator/shell/flood';

/** Printable flood text (the shell's own `flood` lines) of exactly `megabytes` × 10^6 bytes, and its SHA-256. */
export function serialPayload(megabytes: number): { payload: Buffer; digest: string } {
  const payload = Buffer.from([...generateFloodChunks(Math.round(megabytes * 1_000_000))].join(''), 'latin1');
  return { payload, digest: createHash('sha256').update(payload).digest('hex') };
}
