import { describe, expect, it } from 'vitest';
import { blankLike } from '../../../../renderer/src/lib/components/json-fields';

describe('blankLike', () => {
  it('shapes a new PDP profile like the first one, every value blank', () => {
    expect(
      blankLike({ profileName: 'default', pdpType: 'IPV4', cid: 1, isDefault: true, dns: ['8.8.8.8'] }),
    ).toEqual({ profileName: '', pdpType: '', cid: 0, isDefault: false, dns: [] });
  });

  it('blanks nested objects field by field', () => {
    expect(blankLike({ source: { ip: '10.0.0.1', port: 22 } })).toEqual({ source: { ip: '', port: 0 } });
  });
});
