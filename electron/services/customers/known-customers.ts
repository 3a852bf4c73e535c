import type { CustomerOrigin, KnownCustomer } from '../../shared/customers';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';
import { MAX_KNOWN_CUSTOMERS, type CustomerStore } from './customer-store';

/** Most names asked of the server in one round (the rest wait for the next list). */
export const MAX_NAME_LOOKUPS = 20;
/** Names asked at once. */
export const NAME_LOOKUP_CONCURRENCY = 4;
/** A name that could not be read is asked again after this long. */
export const NAME_RETRY_AFTER_MS = 60_000;
/** Pages of the account's events read, at most, to find sub-customers the account owns. */
export const DISCOVERY_EVENT_PAGES = 5;
/** Events per page of that read (the endpoint's largest page). */
export const DISCOVERY_PAGE_SIZE = 100;
/** Records of one answer looked at for customer ids. */
const MAX_RECORDS_LEARNED = 1_000;

/**
 * The reads whose records carry a customer id (gateways, devices, events): what the app learns customers from. The
 * spec lists no customers, only a customer's subCustomersCount.
 */
export const LEARNING_ENDPOINTS: ReadonlySet<string> = new Set([
  'listProviderGateways',
  'listCustomerGateways',
  'listGatewayGroupGateways',
  'listCustomerDevices',
  'listSubCustomerDevices',
  'listEnhancedEvents',
  'listRaisedEnhancedEvents',
  'listEntityEnhancedEvents',
]);

/** The server reads the service makes, through the signed-in session. */
export interface CustomerReader {
  /** GET /api/customer/{id}: its title, else its name (null when it has neither), and its subCustomersCount. */
  readCustomer(customerId: string): Promise<{ name: string | null; subCustomersCount: number | null }>;
  /** One page, newest first, of the events the account may see (GET /api/enhancedEvents). */
  readEvents(page: number, limit: number): Promise<unknown>;
}

/** What the service needs. */
export interface KnownCustomersOptions {
  store: CustomerStore;
  clock?: Pick<Clock, 'now'>;
  /** Told after a profile's list changed (the renderer lists it again). */
  onChange?: (profileId: string) => void;
  log?: { error(message: string, error?: unknown): void };
}

/**
 * The customers each profile knows of, by id and name. The API lists no customers, so they are learned: the
 * account's own, the customer ids on the gateways, devices and events the app reads (`learnFrom`), a first look at
 * the account's newest events after sign-in (`discover`), those a technician adds by id or link (`add`) and those
 * a site pack brought (`merge`). Names come from GET /api/customer/{id}, at most MAX_NAME_LOOKUPS per round; a
 * name that could not be read is kept as "not read" and asked again after NAME_RETRY_AFTER_MS.
 */
export class KnownCustomers {
  private readonly now: () => number;
  /** Each profile's writes, one after another, so that no update is lost. */
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly naming = new Set<string>();
  private readonly discoveries = new Map<string, Promise<number | null>>();

  constructor(private readonly options: KnownCustomersOptions) {
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.now = () => clock.now();
  }

  /** A profile's customers, in the order they became known. */
  list(profileId: string): Promise<KnownCustomer[]> {
    return this.options.store.read(profileId);
  }

  /** Learns the customer ids on the records of an answer of a LEARNING_ENDPOINTS read; others are ignored. */
  async learnFrom(profileId: string, endpoint: string, answer: unknown): Promise<void> {
    if (!LEARNING_ENDPOINTS.has(endpoint)) return;
    const ids = customerIdsIn(answer);
    if (ids.length > 0) await this.learn(profileId, ids, 'seen');
  }

  /** Adds the ids not known yet (names to be read); true when the list changed. */
  learn(profileId: string, ids: readonly string[], origin: CustomerOrigin): Promise<boolean> {
    return this.update(profileId, (customers) => {
      const known = new Set(customers.map((customer) => customer.id));
      const added = [...new Set(ids)]
        .filter((id) => !known.has(id))
        .map((id): KnownCustomer => ({ id, name: null, nameState: 'pending', origin }));
      return added.length === 0 ? null : [...customers, ...added];
    });
  }

  /** Takes in customers a site pack kept: new ones are added, a name read there fills one not read here. */
  merge(profileId: string, incoming: readonly KnownCustomer[]): Promise<boolean> {
    return this.update(profileId, (customers) => {
      const byId = new Map(customers.map((customer) => [customer.id, customer]));
      let changed = false;
      for (const customer of incoming) {
        const known = byId.get(customer.id);
        if (!known) {
          byId.set(customer.id, { ...customer, origin: 'pack' });
          changed = true;
        } else if (known.name === null && customer.name !== null) {
          byId.set(customer.id, { ...known, name: customer.name, nameState: 'read' });
          changed = true;
        }
      }
      return changed ? [...byId.values()] : null;
    });
  }

  /**
   * Adds a customer a technician named by id: its name is read first, so an id the server does not know (or the
   * account may not see) is refused with the server's error and nothing is kept.
   */
  async add(profileId: string, customerId: string, reader: CustomerReader): Promise<KnownCustomer> {
    const { name } = await reader.readCustomer(customerId);
    const entry: KnownCustomer = {
      id: customerId,
      name,
      nameState: name === null ? 'not-read' : 'read',
      origin: 'added',
      triedAt: this.now(),
    };
    await this.update(profileId, (customers) => {
      const index = customers.findIndex((customer) => customer.id === customerId);
      if (index < 0) return [...customers, entry];
      const next = [...customers];
      next[index] = { ...entry, origin: customers[index]!.origin };
      return next;
    });
    return entry;
  }

  /**
   * Once per `key` (an account on a profile, in this run of the app): learns the account's own customer, reads its subCustomersCount, then reads the
   * account's newest events, at most DISCOVERY_EVENT_PAGES pages, until as many other customers are known as it
   * has sub-customers. Resolves to subCustomersCount (null when unknown); never rejects.
   */
  discover(
    key: string,
    profileId: string,
    ownCustomerId: string,
    reader: CustomerReader,
  ): Promise<number | null> {
    let running = this.discoveries.get(key);
    if (!running) {
      running = this.runDiscovery(profileId, ownCustomerId, reader).catch((error: unknown) => {
        this.options.log?.error('looking for sub-customers failed', error);
        return null;
      });
      this.discoveries.set(key, running);
    }
    return running;
  }

  /** Forgets a profile's customers (the profile was removed); a write under way for it finishes first. */
  async forget(profileId: string): Promise<void> {
    await (this.queues.get(profileId) ?? Promise.resolve()).catch(() => undefined);
    this.queues.delete(profileId);
    await this.options.store.remove(profileId);
  }

  /**
   * Reads the names still missing: those never asked, and those not read more than NAME_RETRY_AFTER_MS ago, at
   * most MAX_NAME_LOOKUPS, NAME_LOOKUP_CONCURRENCY at once. One round per profile at a time; never rejects.
   */
  async nameMissing(profileId: string, reader: CustomerReader): Promise<void> {
    if (this.naming.has(profileId)) return;
    this.naming.add(profileId);
    try {
      const now = this.now();
      const due = (await this.list(profileId))
        .filter(
          (customer) =>
            customer.nameState === 'pending' ||
            (customer.nameState === 'not-read' && now - (customer.triedAt ?? 0) >= NAME_RETRY_AFTER_MS),
        )
        .slice(0, MAX_NAME_LOOKUPS);
      let next = 0;
      const lane = async (): Promise<void> => {
        while (next < due.length) {
          const customer = due[next++]!;
          await this.readName(profileId, customer.id, reader);
        }
      };
      await Promise.all(Array.from({ length: Math.min(NAME_LOOKUP_CONCURRENCY, due.length) }, lane));
    } finally {
      this.naming.delete(profileId);
    }
  }

  private async readName(profileId: string, customerId: string, reader: CustomerReader): Promise<void> {
    let name: string | null = null;
    try {
      name = (await reader.readCustomer(customerId)).name;
    } catch (error) {
      this.options.log?.error(`the name of customer ${customerId} could not be read`, error);
    }
    await this.recordName(profileId, customerId, name);
  }

  /** Keeps a name read (or the failure to read one, as null) for a known customer. */
  private async recordName(profileId: string, customerId: string, name: string | null): Promise<void> {
    const triedAt = this.now();
    await this.update(profileId, (customers) =>
      customers.map((customer) =>
        customer.id !== customerId
          ? customer
          : name !== null
            ? { ...customer, name, nameState: 'read', triedAt }
            : // A name read before stays: the server may be away for a moment.
              { ...customer, nameState: customer.name === null ? 'not-read' : 'read', triedAt },
      ),
    );
  }

  private async runDiscovery(
    profileId: string,
    ownCustomerId: string,
    reader: CustomerReader,
  ): Promise<number | null> {
    await this.learn(profileId, [ownCustomerId], 'account');
    const { name, subCustomersCount } = await reader.readCustomer(ownCustomerId);
    // The same read names the account's customer: no second read, and its name comes first.
    await this.recordName(profileId, ownCustomerId, name);
    if (!subCustomersCount) return subCustomersCount;
    for (let page = 0; page < DISCOVERY_EVENT_PAGES; page++) {
      const others = (await this.list(profileId)).filter((customer) => customer.id !== ownCustomerId);
      if (others.length >= subCustomersCount) break;
      const answer = await reader.readEvents(page, DISCOVERY_PAGE_SIZE);
      await this.learnFrom(profileId, 'listEnhancedEvents', answer);
      if (!hasNextPage(answer)) break;
    }
    return subCustomersCount;
  }

  /** Runs `change` on the profile's list after the writes before it; writes and tells `onChange` when it changed. */
  private update(
    profileId: string,
    change: (customers: KnownCustomer[]) => KnownCustomer[] | null,
  ): Promise<boolean> {
    const previous = this.queues.get(profileId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        const changed = change(await this.options.store.read(profileId));
        if (changed === null) return false;
        await this.options.store.write(profileId, changed.slice(0, MAX_KNOWN_CUSTOMERS));
        this.options.onChange?.(profileId);
        return true;
      });
    this.queues.set(profileId, next);
    return next;
  }
}

/**
 * The customer ids on the records of a page answer (`{ data: [...] }`) or a plain array: each record's
 * `customerId`, as an entity reference `{ id }` or a string. At most MAX_RECORDS_LEARNED records are looked at.
 */
export function customerIdsIn(answer: unknown): string[] {
  const records = Array.isArray(answer)
    ? answer
    : typeof answer === 'object' && answer !== null && Array.isArray((answer as { data?: unknown }).data)
      ? (answer as { data: unknown[] }).data
      : [];
  const ids = new Set<string>();
  for (const record of records.slice(0, MAX_RECORDS_LEARNED)) {
    if (typeof record !== 'object' || record === null) continue;
    const reference = (record as { customerId?: unknown }).customerId;
    const id =
      typeof reference === 'string'
        ? reference
        : typeof reference === 'object' && reference !== null
          ? (reference as { id?: unknown }).id
          : undefined;
    if (typeof id === 'string' && id.length > 0 && id.length <= 100) ids.add(id);
  }
  return [...ids];
}

function hasNextPage(answer: unknown): boolean {
  return typeof answer === 'object' && answer !== null && (answer as { hasNext?: unknown }).hasNext === true;
}
