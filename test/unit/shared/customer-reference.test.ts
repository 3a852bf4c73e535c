import { afterEach, describe, expect, it } from 'vitest';
import { describeKnownCustomer, parseCustomerReference } from '../../../electron/shared/customer-reference';
import { setLanguage } from '../../../electron/shared/i18n';

afterEach(() => setLanguage('en'));

const NORTH = '3f2b8c1e-0d4a-4b6e-9a51-7c2d9e8f1a20';
const ACME = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';

describe('parseCustomerReference', () => {
  it('takes a bare id in any case, as lower case, with no host', () => {
    expect(parseCustomerReference(`  ${NORTH.toUpperCase()} `)).toEqual({ ok: true, id: NORTH, host: null });
  });

  it("reads the id from a link to the customer's page and names the link's host", () => {
    expect(parseCustomerReference(`https://OAM.example.com/customers/${NORTH}`)).toEqual({
      ok: true,
      id: NORTH,
      host: 'oam.example.com',
    });
  });

  it("takes the sub-customer's id from a link that names its parent first", () => {
    const link = `https://oam.example.com/customers/${ACME}/subCustomers/${NORTH}/gateways?page=2`;
    expect(parseCustomerReference(link)).toMatchObject({ ok: true, id: NORTH });
  });

  it('reads an API link and a # route of the web UI', () => {
    expect(parseCustomerReference(`http://127.0.0.1:8080/api/customer/${NORTH}`)).toMatchObject({
      ok: true,
      id: NORTH,
      host: '127.0.0.1:8080',
    });
    expect(parseCustomerReference(`https://oam.example.com/#/customers/${NORTH}/users`)).toMatchObject({
      ok: true,
      id: NORTH,
    });
  });

  it('refuses a link with no customer segment before an id, saying what the link needs', () => {
    const outcome = parseCustomerReference(`https://oam.example.com/gateways/${NORTH}`);
    expect(outcome).toEqual({ ok: false, message: expect.stringContaining('"/customers/"') });
  });

  it('says why a text names no customer in the language shown', () => {
    setLanguage('de');
    expect(parseCustomerReference(`ftp://oam.example.com/customers/${NORTH}`)).toEqual({
      ok: false,
      message: 'Nur http- und https-Links bezeichnen einen Kunden.',
    });
    expect(parseCustomerReference('  ')).toEqual({
      ok: false,
      message: 'Geben Sie die ID des Kunden ein oder fügen Sie einen Link zu ihm ein.',
    });
  });

  it('refuses text that is neither an id nor a link, and links that are not http', () => {
    expect(parseCustomerReference('Acme Water North')).toMatchObject({ ok: false });
    expect(parseCustomerReference(`ftp://oam.example.com/customers/${NORTH}`)).toEqual({
      ok: false,
      message: 'Only http and https links name a customer.',
    });
    expect(parseCustomerReference('   ')).toMatchObject({ ok: false });
  });
});

describe('describeKnownCustomer', () => {
  it("names a customer, marking the account's own", () => {
    const customer = { id: ACME, name: 'Acme Water', nameState: 'read', origin: 'account' } as const;
    expect(describeKnownCustomer(customer, ACME)).toBe('Acme Water (your customer)');
    expect(describeKnownCustomer(customer, null)).toBe('Acme Water');
  });

  it('tells a customer without a name by the start of its id and says why', () => {
    const pending = { id: NORTH, name: null, nameState: 'pending', origin: 'seen' } as const;
    expect(describeKnownCustomer(pending, ACME)).toBe('Customer 3f2b8c1e… (reading its name…)');
    expect(describeKnownCustomer({ ...pending, nameState: 'not-read' }, ACME)).toBe(
      'Customer 3f2b8c1e… (name not read)',
    );
  });

  it('marks the own customer in the language shown, switched without a reload', () => {
    const customer = { id: ACME, name: 'Acme Water', nameState: 'read', origin: 'account' } as const;
    setLanguage('de');
    expect(describeKnownCustomer(customer, ACME)).toBe('Acme Water (Ihr Kunde)');
    setLanguage('fr');
    expect(describeKnownCustomer(customer, ACME)).toBe('Acme Water (votre client)');
    const pending = { id: ACME, name: null, nameState: 'not-read', origin: 'account' } as const;
    expect(describeKnownCustomer(pending, ACME)).toBe('Client 9a0b1c2d… (votre client, nom non lu)');
    setLanguage('en');
    expect(describeKnownCustomer(customer, ACME)).toBe('Acme Water (your customer)');
  });
});
