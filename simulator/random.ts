/** A small seeded PRNG (mulberry32): the same seed always yields the same sequence. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = hashSeed(seed);
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both inclusive). */
  integer(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability `probability`. */
  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** `count` lowercase hex digits. */
  hex(count: number): string {
    let text = '';
    while (text.length < count)
      text += Math.floor(this.next() * 4294967296)
        .toString(16)
        .padStart(8, '0');
    return text.slice(0, count);
  }

  /** A version-4-shaped UUID drawn from this sequence. */
  uuid(): string {
    const digits = this.hex(32);
    const variant = (8 + (parseInt(digits[16] as string, 16) % 4)).toString(16);
    return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-4${digits.slice(13, 16)}-${variant}${digits.slice(17, 20)}-${digits.slice(20, 32)}`;
  }

  /** An independent generator derived from this seed and a label (order-independent sub-streams). */
  fork(label: string | number): Random {
    return new Random(hashSeed(this.state ^ hashString(String(label))));
  }
}

/** A deterministic 32-bit hash of a string (FNV-1a). */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Deterministic noise in [-1, 1] for a key and a time bucket: the same inputs give the same value. */
export function noise(key: string, bucket: number): number {
  const random = new Random(hashString(`${key}:${bucket}`));
  return random.next() * 2 - 1;
}

function hashSeed(seed: number): number {
  let value = (seed | 0) ^ 0x9e3779b9;
  value = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  value = Math.imul(value ^ (value >>> 13), 0xc2b2ae35);
  return (value ^ (value >>> 16)) >>> 0;
}
