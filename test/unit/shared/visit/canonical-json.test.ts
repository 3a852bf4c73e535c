import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../electron/shared/visit/canonical-json';

describe('canonicalJson', () => {
  it('sorts keys at every level and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } })).toBe(
      '{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}',
    );
  });

  it('gives the same text for the same value whatever order its keys were written in', () => {
    expect(canonicalJson({ seq: 1, entry: { kind: 'note', text: 'é' } })).toBe(
      canonicalJson({ entry: { text: 'é', kind: 'note' }, seq: 1 }),
    );
  });

  it('orders keys by UTF-16 code units, not by locale', () => {
    expect(canonicalJson({ b: 1, B: 2, é: 3, a: 4 })).toBe('{"B":2,"a":4,"b":1,"é":3}');
  });

  it('leaves out keys whose value is undefined', () => {
    expect(canonicalJson({ a: undefined, b: 2 })).toBe('{"b":2}');
  });

  it('refuses a number JSON cannot carry', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow('canonical JSON cannot hold the number NaN');
  });
});
