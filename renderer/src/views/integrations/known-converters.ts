/** The part of the Web Storage API the list uses (localStorage in the app; a map in tests). */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** A converter the server accepted for an MQTT_V2 or HTTP_V2 integration, so known to be of version 2. */
export interface KnownConverter {
  id: string;
  acceptedAt: number;
}

/** Most converters remembered per profile. */
const KNOWN_CONVERTERS_LIMIT = 20;

/**
 * Version-2 converters per server profile, learnt from saves the server accepted (the API has no converter
 * list, and only the server knows a converter's version). Holds ids only, no secret; newest first.
 */
export class KnownConverters {
  constructor(
    private readonly storage: KeyValueStorage | undefined,
    private readonly profileId: string,
  ) {}

  private get key(): string {
    return `fieldkit.v2-converters.${this.profileId}`;
  }

  /** The remembered converters, newest first; an unreadable entry reads as none. */
  list(): KnownConverter[] {
    try {
      const parsed = JSON.parse(this.storage?.getItem(this.key) ?? '[]') as unknown;
      if (!Array.isArray(parsed)) return [];
      return parsed.filter(
        (entry): entry is KnownConverter =>
          typeof entry === 'object' &&
          entry !== null &&
          typeof (entry as KnownConverter).id === 'string' &&
          typeof (entry as KnownConverter).acceptedAt === 'number',
      );
    } catch {
      return [];
    }
  }

  /** Remembers a converter the server just accepted for a V2 integration. */
  remember(id: string, acceptedAt: number): void {
    const entries = [{ id, acceptedAt }, ...this.list().filter((entry) => entry.id !== id)];
    try {
      this.storage?.setItem(this.key, JSON.stringify(entries.slice(0, KNOWN_CONVERTERS_LIMIT)));
    } catch {
      // A full or blocked storage only loses the suggestion list; the typed id still works.
    }
  }
}
