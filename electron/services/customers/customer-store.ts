import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../files/atomic-file';
import { readPrivateFile, UnsafePathError } from '../files/private-files';
import { KnownCustomerSchema, type KnownCustomer } from '../../shared/customers';
import { SYSTEM_CLOCK, type Clock } from '../../shared/clock';

/** The folder of the known-customer lists under the data folder. */
export const CUSTOMERS_FOLDER = 'customers';
/** The version of the file this build writes and reads. */
export const CUSTOMER_FILE_VERSION = 1;
/** Most customers kept per profile: the list is for picking, not a copy of the tenant. */
export const MAX_KNOWN_CUSTOMERS = 500;

const PROFILE_ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/;

const CustomerFileSchema = z.object({
  version: z.literal(CUSTOMER_FILE_VERSION),
  profileId: z.string(),
  customers: z.array(KnownCustomerSchema).max(MAX_KNOWN_CUSTOMERS),
});

/**
 * The customers each profile knows of, `<dataDir>/customers/<profileId>.json` (folder 0700, file 0600, written
 * atomically). A file that cannot be read as this version's is renamed `….corrupt-<time>` and the profile starts
 * again from what the app reads: the list is relearned, nothing in it is secret or irreplaceable. Reads are kept
 * in memory after the first.
 */
export class CustomerStore {
  readonly folder: string;
  private readonly now: () => number;
  private readonly cache = new Map<string, Promise<KnownCustomer[]>>();

  constructor(options: { dataDir: string; clock?: Pick<Clock, 'now'> }) {
    this.folder = join(options.dataDir, CUSTOMERS_FOLDER);
    const clock = options.clock ?? SYSTEM_CLOCK;
    this.now = () => clock.now();
  }

  /** The file of a profile's list; refuses an id that could leave the folder. */
  pathOf(profileId: string): string {
    if (!PROFILE_ID_PATTERN.test(profileId) || profileId.startsWith('.')) {
      throw new Error(`Profile id ${JSON.stringify(profileId)} cannot name a customer list file`);
    }
    return join(this.folder, `${profileId}.json`);
  }

  /** A profile's customers (empty when none is kept). */
  read(profileId: string): Promise<KnownCustomer[]> {
    let reading = this.cache.get(profileId);
    if (!reading) {
      reading = this.readFromDisk(profileId);
      this.cache.set(profileId, reading);
      reading.catch(() => this.cache.delete(profileId));
    }
    return reading;
  }

  /** Replaces a profile's list (the first MAX_KNOWN_CUSTOMERS are kept). */
  async write(profileId: string, customers: readonly KnownCustomer[]): Promise<void> {
    const kept = customers.slice(0, MAX_KNOWN_CUSTOMERS);
    this.cache.set(profileId, Promise.resolve(kept));
    const file = { version: CUSTOMER_FILE_VERSION, profileId, customers: kept };
    await writeFileAtomic(this.pathOf(profileId), JSON.stringify(file), 0o600);
  }

  /** Forgets a profile's list and deletes its file (its profile was removed). */
  async remove(profileId: string): Promise<void> {
    this.cache.delete(profileId);
    await rm(this.pathOf(profileId), { force: true });
  }

  private async readFromDisk(profileId: string): Promise<KnownCustomer[]> {
    const path = this.pathOf(profileId);
    let text: string;
    try {
      text = await readPrivateFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      if (error instanceof UnsafePathError) return this.setAside(profileId, path);
      throw error;
    }
    let parsed: ReturnType<typeof CustomerFileSchema.safeParse>;
    try {
      parsed = CustomerFileSchema.safeParse(JSON.parse(text));
    } catch {
      return this.setAside(profileId, path);
    }
    if (!parsed.success || parsed.data.profileId !== profileId) return this.setAside(profileId, path);
    return parsed.data.customers;
  }

  private async setAside(profileId: string, path: string): Promise<KnownCustomer[]> {
    await rename(path, join(this.folder, `${profileId}.json.corrupt-${this.now()}`));
    return [];
  }
}
