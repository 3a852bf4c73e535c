import { describe, expect, it } from 'vitest';
import { ariaSortOf, nextSort, visibleRange } from '../../../../renderer/src/lib/components/data-table';
import { isEmptyAnswer, tabulateAnswer } from '../../../../renderer/src/views/gateways/command-answer';
import { pageRequest } from '../../../../renderer/src/views/gateways/gateway-list.svelte';
import { userGatewaysRequest } from '../../../../renderer/src/views/gateways/gateway-reads';

const QUERY = {
  page: 2,
  limit: 100,
  sortField: 'NAME' as const,
  sortDirection: 'ASC' as const,
  textSearch: '',
};

describe('virtual list window', () => {
  it('renders a bounded number of rows whatever the list length', () => {
    for (const scrollTop of [0, 18_000, 180_000, 359_568]) {
      const range = visibleRange(scrollTop, 432, 36, 10_000, 10);
      expect(range.end - range.start).toBeLessThanOrEqual(Math.ceil(432 / 36) + 1 + 2 * 10);
    }
  });

  it('starts at the first row at the top and stops at the last row at the bottom', () => {
    expect(visibleRange(0, 432, 36, 10_000, 10).start).toBe(0);
    expect(visibleRange(1e9, 432, 36, 10_000, 10).end).toBe(10_000);
  });

  it('renders nothing for an empty list', () => {
    expect(visibleRange(0, 432, 36, 0, 10)).toEqual({ start: 0, end: 0 });
  });
});

describe('column sorting', () => {
  it('sorts a new column ascending and flips the current one', () => {
    expect(nextSort('NAME', { key: 'STATUS', direction: 'DESC' })).toEqual({ key: 'NAME', direction: 'ASC' });
    expect(nextSort('NAME', { key: 'NAME', direction: 'ASC' })).toEqual({ key: 'NAME', direction: 'DESC' });
  });

  it('says the sort of each sortable header through aria-sort', () => {
    const sort = { key: 'NAME', direction: 'DESC' as const };
    expect(ariaSortOf('NAME', sort)).toBe('descending');
    expect(ariaSortOf('STATUS', sort)).toBe('none');
    expect(ariaSortOf(undefined, sort)).toBeUndefined();
  });
});

describe('gateway list requests', () => {
  it('asks the endpoint of the chosen scope', () => {
    expect(pageRequest({ kind: 'provider', id: 'p' }, QUERY).endpoint).toBe('listProviderGateways');
    expect(pageRequest({ kind: 'customer', id: 'c' }, QUERY)).toMatchObject({
      endpoint: 'listCustomerGateways',
      params: { customerId: 'c' },
    });
    expect(pageRequest({ kind: 'group', id: 'g' }, QUERY)).toMatchObject({
      endpoint: 'listGatewayGroupGateways',
      params: { gatewayGroupId: 'g' },
    });
  });

  it('sends textSearch only when there is something to search for, trimmed', () => {
    expect(pageRequest({ kind: 'provider', id: 'p' }, QUERY).query).not.toHaveProperty('textSearch');
    expect(
      pageRequest({ kind: 'provider', id: 'p' }, { ...QUERY, textSearch: ' Roof north ' }).query,
    ).toMatchObject({
      textSearch: 'Roof north',
    });
  });

  it('sends a MAC typed with separators as the digits the server stores', () => {
    expect(
      pageRequest({ kind: 'provider', id: 'p' }, { ...QUERY, textSearch: ' 00:1a ' }).query,
    ).toMatchObject({
      textSearch: '001A',
    });
  });
});

describe("the signed-in user's gateways", () => {
  const query = { page: 0, limit: 8, textSearch: 'acme' };

  it("lists a provider user's provider, a customer user's customer, and nothing without either id", () => {
    expect(userGatewaysRequest({ role: 'PROVIDER_USER', providerId: 'p', customerId: 'c' }, query)).toEqual({
      endpoint: 'listProviderGateways',
      params: { providerId: 'p' },
      query,
    });
    expect(userGatewaysRequest({ role: 'CUSTOMER_USER', providerId: 'p', customerId: 'c' }, query)).toEqual({
      endpoint: 'listCustomerGateways',
      params: { customerId: 'c' },
      query,
    });
    expect(userGatewaysRequest({ role: 'CUSTOMER_USER' }, query)).toBeNull();
    expect(userGatewaysRequest(null, query)).toBeNull();
  });
});

describe('command answers as tables', () => {
  it('lays an object out as field and value rows, nested fields by their path', () => {
    expect(tabulateAnswer({ moduleName: 'EG95', interfaces: { eth0: '10.0.0.2' } })).toEqual({
      columns: ['Field', 'Value'],
      rows: [
        ['moduleName', 'EG95'],
        ['interfaces.eth0', '10.0.0.2'],
      ],
    });
  });

  it('lays an array of objects out as one row per item', () => {
    expect(
      tabulateAnswer([
        { name: 'bsp', ver: '1' },
        { name: 'lora', ver: '2', newVer: '3' },
      ]),
    ).toEqual({
      columns: ['name', 'ver', 'newVer'],
      rows: [
        ['bsp', '1', '—'],
        ['lora', '2', '3'],
      ],
    });
  });
});

describe('empty command answers', () => {
  it('calls an answer with nothing in it empty (no body, null, {}, [], an empty text)', () => {
    expect([undefined, null, {}, [], ''].map(isEmptyAnswer)).toEqual([true, true, true, true, true]);
  });

  it('calls an answer with any value in it not empty, a zero or false included', () => {
    expect([0, false, 'OK', [0], { status: null }].map(isEmptyAnswer)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
