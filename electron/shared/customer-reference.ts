// No zod here: the renderer bundles this file (the customer picker reads links and names customers with it).
import type { KnownCustomer } from './customers';
import { t, type Translator } from './i18n';

/** Hex digits of a UUID in its 8-4-4-4-12 form, as the server writes entity ids. */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const WHOLE_UUID = new RegExp(`^${UUID.source}$`, 'i');
/** A path segment naming customers in the server's web UI or API (`customers`, `customer`, `subCustomers`…). */
const CUSTOMER_SEGMENT = /^(sub)?customers?$/i;

/** What a technician typed or pasted to add a customer: its id, or why it names none. */
export type CustomerReference =
  { ok: true; id: string; host: string | null } | { ok: false; message: string };

/**
 * Reads a customer id from what a technician typed or pasted: a bare UUID, or a link of the server's web UI or
 * API whose path (or `#` route) has a `customers`, `customer`, `subCustomers` or `subCustomer` segment followed by
 * a UUID, such as `https://oam.example.com/customers/<uuid>`, `…/customers/<parent>/subCustomers/<uuid>/gateways`
 * or `…/api/customer/<uuid>`. The last such UUID wins (a sub-customer's link names its parent first). `host` is
 * the link's host, for the caller to compare with the profile's server; null for a bare id. Why a text names no
 * customer is written in the current language.
 */
export function parseCustomerReference(text: string): CustomerReference {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: t('components:customerReferenceEmpty') };
  if (WHOLE_UUID.test(trimmed)) return { ok: true, id: trimmed.toLowerCase(), host: null };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, message: t('components:customerReferenceNotIdOrLink') };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: t('components:customerReferenceNotWeb') };
  }
  const segments = [...url.pathname.split('/'), ...url.hash.replace(/^#!?/, '').split(/[/?]/)]
    .map((segment) => decodeSegment(segment))
    .filter((segment) => segment !== '');
  let found: string | null = null;
  for (let index = 1; index < segments.length; index++) {
    const segment = segments[index] as string;
    if (CUSTOMER_SEGMENT.test(segments[index - 1] as string) && WHOLE_UUID.test(segment)) found = segment;
  }
  if (found === null) {
    return { ok: false, message: t('components:customerReferenceNoCustomer') };
  }
  return { ok: true, id: found.toLowerCase(), host: url.host.toLowerCase() };
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * How a customer reads in a picker: its name, marked "(your customer)" for the account's own; before the name is
 * read the start of its id says which customer it is and why there is no name.
 */
export function describeKnownCustomer(
  customer: KnownCustomer,
  ownCustomerId: string | null,
  translate: Translator = t,
): string {
  const own = customer.id === ownCustomerId;
  if (customer.name !== null) {
    return own ? translate('components:customerOwnNamed', { name: customer.name }) : customer.name;
  }
  const short = customer.id.slice(0, 8);
  if (customer.nameState === 'not-read') {
    return own
      ? translate('components:customerOwnNameNotRead', { id: short })
      : translate('components:customerNameNotRead', { id: short });
  }
  return own
    ? translate('components:customerOwnNameReading', { id: short })
    : translate('components:customerNameReading', { id: short });
}
