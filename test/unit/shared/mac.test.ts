import { describe, expect, it } from 'vitest';
import { formatMac, isSameMac, normalizeMac, toGatewaySearchText } from '../../../electron/shared/mac';

describe('normalizeMac', () => {
  it.each([
    ['64:7F:DA:FF:FE:00:1C:AD', '647FDAFFFE001CAD'],
    ['64-7f-da-ff-fe-00-1c-ad', '647FDAFFFE001CAD'],
    ['647fdafffe001cad', '647FDAFFFE001CAD'],
    ['647f.daff.fe00.1cad', '647FDAFFFE001CAD'],
    ['  1c:ad ', '1CAD'],
    ['64 7F DA', '647FDA'],
  ])('reads %s as %s', (typed, digits) => {
    expect(normalizeMac(typed)).toBe(digits);
  });

  it.each(['gateway-7', 'roof north', '', '1c::ad', ':1cad', '12345:ab'])('is null for %j', (typed) => {
    expect(normalizeMac(typed)).toBeNull();
  });
});

describe('toGatewaySearchText', () => {
  it('sends a MAC typed with colons as the digits the server stores', () => {
    expect(toGatewaySearchText('64:7f:da:ff:fe:00:1c:ad')).toBe('647FDAFFFE001CAD');
  });

  it('sends a name as typed, trimmed', () => {
    expect(toGatewaySearchText('  Roof north ')).toBe('Roof north');
  });

  it('leaves text without separators as typed (the server ignores case)', () => {
    expect(toGatewaySearchText('cafe')).toBe('cafe');
  });
});

describe('formatMac', () => {
  it('groups a whole EUI-64 in colon-separated pairs, upper case', () => {
    expect(formatMac('647fdafffe001cad')).toBe('64:7F:DA:FF:FE:00:1C:AD');
  });

  it('groups a whole EUI-48', () => {
    expect(formatMac('00-1A-2B-3C-4D-5E')).toBe('00:1A:2B:3C:4D:5E');
  });

  it('returns a value that is not a whole MAC unchanged', () => {
    expect(formatMac('647FDA')).toBe('647FDA');
    expect(formatMac('unknown')).toBe('unknown');
  });
});

describe('isSameMac', () => {
  it('matches one address written two ways', () => {
    expect(isSameMac('64:7F:DA:FF:FE:00:1C:AD', '647fdafffe001cad')).toBe(true);
  });

  it('does not match a name', () => {
    expect(isSameMac('gateway', 'gateway')).toBe(false);
  });
});
