import { describe, expect, it } from 'vitest';
import {
  KnownConverters,
  type KeyValueStorage,
} from '../../../../renderer/src/views/integrations/known-converters';

function createMemoryStorage(): KeyValueStorage & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => void entries.set(key, value),
  };
}

describe('KnownConverters', () => {
  it('offers accepted converters newest first, each once', () => {
    const known = new KnownConverters(createMemoryStorage(), 'demo');
    known.remember('conv-a', 1);
    known.remember('conv-b', 2);
    known.remember('conv-a', 3);
    expect(known.list().map((entry) => entry.id)).toEqual(['conv-a', 'conv-b']);
  });

  it('keeps each profile’s converters apart', () => {
    const storage = createMemoryStorage();
    new KnownConverters(storage, 'demo').remember('conv-a', 1);
    expect(new KnownConverters(storage, 'company').list()).toEqual([]);
  });

  it('reads a damaged entry as none', () => {
    const storage = createMemoryStorage();
    storage.setItem('fieldkit.v2-converters.demo', '{not json');
    expect(new KnownConverters(storage, 'demo').list()).toEqual([]);
  });
});
