import { describe, expect, it } from 'vitest';
import {
  describeUnsafePathParameter,
  isNestedDeeperThan,
  MAX_ANSWER_DEPTH,
} from '../../../../electron/shared/api';
import { BaseUrlSchema, isLoopbackHost } from '../../../../electron/shared/ipc/schemas';

/** Arrays nested `depth` levels deep around a 0. */
function nested(depth: number): unknown {
  return JSON.parse(`${'['.repeat(depth)}0${']'.repeat(depth)}`);
}

describe('isNestedDeeperThan', () => {
  it('accepts an answer exactly at the limit and refuses one level more', () => {
    expect(isNestedDeeperThan(nested(MAX_ANSWER_DEPTH), MAX_ANSWER_DEPTH)).toBe(false);
    expect(isNestedDeeperThan(nested(MAX_ANSWER_DEPTH + 1), MAX_ANSWER_DEPTH)).toBe(true);
  });

  it('counts objects and arrays alike, wherever the deep branch is', () => {
    const deepObject = JSON.parse(`${'{"a":'.repeat(70)}1${'}'.repeat(70)}`) as unknown;
    expect(isNestedDeeperThan({ data: [{ ok: 1 }, { deep: deepObject }] }, MAX_ANSWER_DEPTH)).toBe(true);
    expect(isNestedDeeperThan({ data: [{ ok: 1 }, { shallow: [[1]] }] }, MAX_ANSWER_DEPTH)).toBe(false);
  });

  it('measures a value far deeper than the stack allows without overflowing', () => {
    expect(isNestedDeeperThan(nested(200_000), MAX_ANSWER_DEPTH)).toBe(true);
  });

  it('takes a scalar as no nesting at all', () => {
    for (const value of [null, undefined, 0, 'text', true]) expect(isNestedDeeperThan(value, 0)).toBe(false);
  });
});

describe('describeUnsafePathParameter', () => {
  it('accepts ids, dots inside a name and encoded characters that are not separators', () => {
    for (const value of ['c1', 'a.b', '...', 'a b', 'ü', '%41', '100%', '%zz'])
      expect(describeUnsafePathParameter(value)).toBeUndefined();
  });

  it('refuses empty, dot segments and separators, plain or percent-encoded any number of times', () => {
    const refused = [
      '',
      '.',
      '..',
      'a/b',
      '/',
      'a\\b',
      '%2e',
      '%2E%2e',
      '%252e%252e',
      '%2f',
      'x%2Fy',
      '%5C',
      '%25252f',
    ];
    for (const value of refused) expect(describeUnsafePathParameter(value), value).toMatch(/^must not/);
  });
});

describe('BaseUrlSchema', () => {
  it('takes http:// only for this computer', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]'])
      expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['10.0.0.1', '128.0.0.1', '127.0.0.1.example.com', 'localhost.example', '[::2]'])
      expect(isLoopbackHost(host)).toBe(false);
    expect(BaseUrlSchema.safeParse('http://127.0.0.1:8080').success).toBe(true);
    expect(BaseUrlSchema.safeParse('https://oam.example.com').success).toBe(true);
    const refused = BaseUrlSchema.safeParse('http://oam.example.com');
    expect(refused.error?.issues[0]?.message).toContain(
      'plain http:// is only allowed for a server on this computer',
    );
  });
});
