import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets, redactText } from '../../../../electron/services/audit';

describe('redactSecrets', () => {
  it('replaces secrets by key in nested objects and arrays', () => {
    const value = { list: [{ AppKey: 'k1' }, { nested: { nwk_s_key: 'k2', 'client-key-password': 'k3' } }] };
    expect(redactSecrets(value)).toEqual({
      list: [{ AppKey: REDACTED }, { nested: { nwk_s_key: REDACTED, 'client-key-password': REDACTED } }],
    });
  });

  it('leaves values that only look like secrets by name, such as token lifetimes, alone', () => {
    expect(redactSecrets({ accessTokenTtlSeconds: 7200, packetsCount: 4 })).toEqual({
      accessTokenTtlSeconds: 7200,
      packetsCount: 4,
    });
  });

  it('passes plain values through', () => {
    expect(redactSecrets(3)).toBe(3);
    expect(redactSecrets('text')).toBe('text');
    expect(redactSecrets(null)).toBeNull();
  });
});

describe('redactText', () => {
  it('masks bearer tokens, key=value secrets and known secret values in free text', () => {
    const text = redactText('Bearer abc.def.ghi failed; password=hunter2 "token": "xyz" label secret-value', [
      'secret-value',
    ]);
    expect(text).not.toMatch(/abc\.def\.ghi|hunter2|xyz|secret-value/);
  });
});
