import { describeKnownCustomer } from '../../../../electron/shared/customer-reference';
import { t } from '../i18n';
import type { IpcClient } from '../ipc';
import type { ChannelOutput } from '../wire-types';

type CustomerList = ChannelOutput<'customers:list'>;
/** One customer the profile knows of. */
export type KnownCustomer = CustomerList['customers'][number];

/** What adding a customer by id or link came to: the customer, or the message to show under the field. */
export type AddOutcome = { ok: true; customer: KnownCustomer } | { ok: false; message: string };

/**
 * The profile's known customers as runes, shared by every customer picker: listed from main when first asked
 * and again whenever main says the list changed (learned from an answer, named, added).
 */
export class CustomersState {
  /** The last list main gave, null before the first. */
  list = $state<CustomerList | null>(null);
  #client: IpcClient;
  #stops: Array<() => void>;
  #reading: Promise<void> | null = null;
  #isStale = false;

  constructor(client: IpcClient) {
    this.#client = client;
    // Another account (or profile) has other customers: list again at each sign-in and sign-out.
    this.#stops = [
      client.on('customers:changed', () => void this.reload()),
      client.on('session:changed', () => void this.reload()),
    ];
  }

  /** The customers, the account's own first, then by name (those not named yet last). */
  get customers(): KnownCustomer[] {
    const list = this.list;
    if (!list) return [];
    const own = list.ownCustomerId;
    return [...list.customers].sort((left, right) => {
      if (left.id === own) return -1;
      if (right.id === own) return 1;
      if (left.name === null || right.name === null)
        return left.name === null ? (right.name === null ? 0 : 1) : -1;
      return left.name.localeCompare(right.name);
    });
  }

  /** How a customer reads in a picker (its id's start and why there is no name, until its name is read). */
  labelOf(customer: KnownCustomer): string {
    return describeKnownCustomer(customer, this.list?.ownCustomerId ?? null);
  }

  /** The name of a customer by id ("Customer 1a2b3c4d…" when unknown or not named). */
  nameOf(customerId: string): string {
    const known = this.list?.customers.find((customer) => customer.id === customerId);
    return known?.name ?? t('app:customerUnnamed', { id: customerId.slice(0, 8) });
  }

  /** Lists the customers again (a list asked for while one is read follows it, once). */
  reload(): Promise<void> {
    if (this.#reading) {
      this.#isStale = true;
      return this.#reading;
    }
    this.#reading = (async () => {
      do {
        this.#isStale = false;
        const answer = await this.#client.invoke('customers:list');
        if (answer.ok) this.list = answer.value;
      } while (this.#isStale);
      this.#reading = null;
    })();
    return this.#reading;
  }

  /** Adds a customer by id or a link to it on the server (main reads its name first). */
  async add(text: string): Promise<AddOutcome> {
    const answer = await this.#client.invoke('customers:add', { text });
    if (!answer.ok) return { ok: false, message: answer.error.message };
    await this.reload();
    return { ok: true, customer: answer.value };
  }

  /** Stops listening to main. */
  dispose(): void {
    for (const stop of this.#stops) stop();
  }
}

const shared = new WeakMap<IpcClient, CustomersState>();

/** The one CustomersState of a client (the app has one client; it lives as long as the app). */
export function customersOf(client: IpcClient): CustomersState {
  let state = shared.get(client);
  if (!state) {
    state = new CustomersState(client);
    shared.set(client, state);
    void state.reload();
  }
  return state;
}
