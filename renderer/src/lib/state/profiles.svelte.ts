import type { IpcClient } from '../ipc';
import type { IpcErrorShape, Profile, ProfileDraft, Result } from '../wire-types';

/** A profile as the add/edit form submits it: without id to add, with id to edit. */
export type { ProfileDraft };

/** The server profiles and which one is selected, as runes; every change goes through main first. */
export class ProfilesState {
  profiles = $state<Profile[]>([]);
  selectedId = $state<string | null>(null);
  loadError = $state<IpcErrorShape | null>(null);
  isLoaded = $state(false);
  readonly #client: IpcClient;

  constructor(client: IpcClient) {
    this.#client = client;
  }

  /** The selected profile, or null when none is. */
  get selected(): Profile | null {
    return this.profiles.find((profile) => profile.id === this.selectedId) ?? null;
  }

  /** Reads the profiles from main. */
  async load(): Promise<void> {
    const result = await this.#client.invoke('profiles:list');
    if (result.ok) {
      this.profiles = result.value.profiles;
      this.selectedId = result.value.selectedId ?? this.#soleProfileId(result.value.profiles);
      this.loadError = null;
    } else {
      this.loadError = result.error;
    }
    this.isLoaded = true;
  }

  /** Adds or edits a profile; on success the list holds the saved version. */
  async save(draft: ProfileDraft): Promise<Result<Profile>> {
    const result = await this.#client.invoke('profiles:save', draft);
    if (result.ok) this.#put(result.value);
    return result;
  }

  /** Deletes a profile; on success it is gone from the list. */
  async remove(id: string): Promise<Result<null>> {
    const result = await this.#client.invoke('profiles:delete', { id });
    if (result.ok) {
      this.profiles = this.profiles.filter((profile) => profile.id !== id);
      if (this.selectedId === id) this.selectedId = this.#soleProfileId(this.profiles);
    }
    return result;
  }

  /** Makes a profile the selected one (main remembers it for the next start). */
  async select(id: string): Promise<Result<null>> {
    const result = await this.#client.invoke('profiles:select', { id });
    if (result.ok) this.selectedId = id;
    return result;
  }

  /** Pins the certificate the user saw (by SHA-256) as trusted for this profile. */
  async trustCertificate(id: string, sha256: string): Promise<Result<Profile>> {
    const result = await this.#client.invoke('profiles:trust-certificate', { id, sha256 });
    if (result.ok) this.#put(result.value);
    return result;
  }

  #put(saved: Profile): void {
    const index = this.profiles.findIndex((profile) => profile.id === saved.id);
    this.profiles = index === -1 ? [...this.profiles, saved] : this.profiles.with(index, saved);
  }

  #soleProfileId(profiles: Profile[]): string | null {
    return profiles.length === 1 ? (profiles[0]?.id ?? null) : null;
  }
}
