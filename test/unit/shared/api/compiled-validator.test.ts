import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  DeviceListSchema,
  EnhancedEventSchema,
  ENDPOINT_NAMES,
  endpoints,
  GatewaySchema,
  gatewayCommands,
  pageSchema,
  TokenPairSchema,
} from '../../../../electron/shared/api';
import {
  codePointLength,
  compileValidator,
  validatorFor,
} from '../../../../electron/shared/api/compiled-validator';

function makeReference(entityType: string, id: string) {
  return { entityType, id };
}

function makeDevice(index: number): Record<string, unknown> {
  return {
    id: makeReference('DEVICE', `device-${index}`),
    abp: false,
    applicationAbp: null,
    active: index % 2 === 0,
    additionalInfo: { note: 'kept' },
    appEUI: '70B3D57ED0000000',
    deviceEUI: `00000000000000${String(index).padStart(2, '0')}`,
    name: `Sensor ${index}`,
    applicationId: makeReference('APPLICATION', 'app-1'),
    customerId: null,
    createdTime: 1_700_000_000_000 + index,
    inactivityTimeout: 3600,
    lastActivityTime: index % 3 === 0 ? null : 1_700_000_100_000,
    previousDevNonces: [1, 2, 3],
    state: 'ONLINE',
    vendorExtension: { kept: true },
  };
}

function makeGateway(index: number): Record<string, unknown> {
  return {
    id: makeReference('GATEWAY', `gateway-${index}`),
    createdTime: 1_700_000_000_000,
    name: `Roof ${index}`,
    gatewayMac: `00:11:22:33:44:${String(index).padStart(2, '0')}`,
    gatewayModelName: null,
    isPublic: true,
    status: 'ONLINE',
    customerId: makeReference('CUSTOMER', 'customer-1'),
    lastSeenTime: undefined,
  };
}

function makeEvent(index: number): Record<string, unknown> {
  return {
    id: `event-${index}`,
    startTs: 1_700_000_000_000,
    endTs: null,
    source: 'GATEWAY',
    entityId: 'gateway-1',
    entityName: 'Roof 1',
    eventName: 'GATEWAY_LOW_BATTERY_ALARM',
    eventType: 'Alarms',
    severity: 'Major',
    state: 'Raised',
    details: [{ any: 'thing' }],
  };
}

const GatewayPageSchema = pageSchema(GatewaySchema);
const EventPageSchema = pageSchema(EnhancedEventSchema);

const SAMPLES: Array<[string, z.ZodType, unknown]> = [
  [
    'device list',
    DeviceListSchema,
    { data: Array.from({ length: 6 }, (_, index) => makeDevice(index)), totalElements: 6 },
  ],
  [
    'gateway page',
    GatewayPageSchema,
    {
      data: Array.from({ length: 4 }, (_, index) => makeGateway(index)),
      totalPages: 1,
      totalElements: 4,
      hasNext: false,
    },
  ],
  [
    'event page',
    EventPageSchema,
    { data: [makeEvent(1), makeEvent(2)], totalPages: 3, totalElements: 5, hasNext: true },
  ],
  ['token pair', TokenPairSchema, { token: 'a.b.c', refreshToken: 'r.s.t', scope: 'extra' }],
];

/** Values that break one rule or another of the schemas above, or sit on an edge of one. */
const AWKWARD_VALUES: unknown[] = [
  undefined,
  null,
  '',
  'text',
  '\uD83D\uDE00',
  '\uD800',
  0,
  -0,
  -1,
  1.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 53,
  -(2 ** 53),
  Number.MAX_SAFE_INTEGER,
  true,
  false,
  {},
  [],
  [1, 'two'],
  makeReference('DEVICE', ''),
  makeReference('DEVICE', 'device-9'),
  { entityType: 7, id: 'x' },
];

type Mutation =
  | { kind: 'replace'; path: number[]; value: number }
  | { kind: 'delete'; path: number[] }
  | { kind: 'add'; path: number[]; key: string; value: number };

/** Follows `path` (each step an index into the keys of an object or an array) and applies the mutation there. */
function mutate(value: unknown, mutation: Mutation): unknown {
  const copy = structuredClone(value);
  let parent: Record<string, unknown> | unknown[] | undefined;
  let key: string | undefined;
  let current: unknown = copy;
  for (const step of mutation.path) {
    if (typeof current !== 'object' || current === null) break;
    const keys = Object.keys(current);
    if (keys.length === 0) break;
    parent = current as Record<string, unknown>;
    key = keys[step % keys.length]!;
    current = parent[key];
  }
  if (mutation.kind === 'add') {
    if (typeof current === 'object' && current !== null && !Array.isArray(current))
      (current as Record<string, unknown>)[mutation.key] = AWKWARD_VALUES[mutation.value];
    return copy;
  }
  if (!parent || key === undefined)
    return mutation.kind === 'replace' ? AWKWARD_VALUES[mutation.value] : copy;
  if (mutation.kind === 'delete') delete (parent as Record<string, unknown>)[key];
  else (parent as Record<string, unknown>)[key] = AWKWARD_VALUES[mutation.value];
  return copy;
}

const mutationArbitrary: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({
    kind: fc.constant('replace' as const),
    path: fc.array(fc.nat(60), { maxLength: 5 }),
    value: fc.nat(AWKWARD_VALUES.length - 1),
  }),
  fc.record({
    kind: fc.constant('delete' as const),
    path: fc.array(fc.nat(60), { minLength: 1, maxLength: 5 }),
  }),
  fc.record({
    kind: fc.constant('add' as const),
    path: fc.array(fc.nat(60), { maxLength: 4 }),
    key: fc.constantFrom('extra', 'id', 'state', 'data', '__proto__', 'toString'),
    value: fc.nat(AWKWARD_VALUES.length - 1),
  }),
);

const KEYS = ['a', 'b', 'c'] as const;

/** Random schemas of the kinds the compiler knows, with a few it hands to zod (refine, union, default). */
const { schema: schemaArbitrary } = fc.letrec<{ schema: z.ZodType; leaf: z.ZodType }>((tie) => ({
  leaf: fc.oneof(
    fc.constant(z.string()),
    fc.record({ min: fc.nat(3), extra: fc.nat(2) }).map(({ min, extra }) =>
      z
        .string()
        .min(min)
        .max(min + extra),
    ),
    fc.constant(z.int()),
    fc.integer({ min: -2, max: 2 }).map((bound) => z.int().min(bound)),
    fc.constant(z.number().nonnegative()),
    fc.constant(z.boolean()),
    fc.constant(z.null()),
    fc.constant(z.unknown()),
    fc.constant(z.enum(['a', 'b'])),
    fc.constant(z.literal(0)),
    fc.constant(z.string().refine((value) => value.length !== 1)),
    fc.constant(z.union([z.string(), z.int()])),
    fc.constant(z.union([z.strictObject({ a: z.string() }), z.object({ b: z.int().optional() })])),
    fc.constant(z.xor([z.string(), z.string().min(2)])),
    fc.constant(z.record(z.string(), z.int())),
    fc.constant(z.record(z.enum(['a', 'b']), z.string().optional())),
    fc.constant(z.partialRecord(z.enum(['a', 'c']), z.int())),
    fc.constant(z.looseRecord(z.enum(['b']), z.null())),
    fc.constant(z.int().default(1)),
  ),
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    fc
      .record({
        fields: fc.dictionary(fc.constantFrom(...KEYS), tie('schema'), { maxKeys: 3 }),
        mode: fc.constantFrom('strip', 'strict', 'loose'),
      })
      .map(({ fields, mode }) =>
        mode === 'strict'
          ? z.strictObject(fields)
          : mode === 'loose'
            ? z.looseObject(fields)
            : z.object(fields),
      ),
    fc
      .record({ element: tie('schema'), min: fc.option(fc.nat(2)) })
      .map(({ element, min }) => (min === null ? z.array(element) : z.array(element).min(min))),
    tie('schema').map((inner) => inner.optional()),
    tie('schema').map((inner) => inner.nullable()),
    tie('schema').map((inner) => inner.nullish()),
  ),
}));

/** Random values shaped like the schemas above often enough to reach their inner rules. */
const { value: valueArbitrary } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...AWKWARD_VALUES, 'a', 'b', 'ab', 'abcd', 1, 2),
    fc.constantFrom('😀', '😀😀', 'a😀', '😀😀😀', '\uDE00\uD83D'),
    fc.dictionary(fc.constantFrom(...KEYS, 'd'), tie('value'), { maxKeys: 4 }),
    fc.array(tie('value'), { maxLength: 3 }),
  ),
}));

describe('compileValidator', () => {
  it.each(SAMPLES)('accepts a valid %s without asking zod', (_name, schema, sample) => {
    const compiled = compileValidator(schema);
    expect(compiled.delegated).toEqual([]);
    expect(compiled.accepts(sample)).toBe(true);
  });

  it.each(SAMPLES)('agrees with zod on every mutation of a %s', (_name, schema, sample) => {
    const { accepts } = compileValidator(schema);
    fc.assert(
      fc.property(fc.array(mutationArbitrary, { minLength: 1, maxLength: 3 }), (mutations) => {
        const value = mutations.reduce<unknown>((current, mutation) => mutate(current, mutation), sample);
        expect(accepts(value)).toBe(schema.safeParse(value).success);
      }),
      { numRuns: 400 },
    );
  });

  it('agrees with zod on random schemas and random values', () => {
    fc.assert(
      fc.property(
        schemaArbitrary,
        fc.array(valueArbitrary, { minLength: 1, maxLength: 8 }),
        (schema, values) => {
          const { accepts } = compileValidator(schema);
          for (const value of values) expect(accepts(value)).toBe(schema.safeParse(value).success);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('refuses a device list whose record lacks a required field, as zod does', () => {
    const { accepts } = compileValidator(DeviceListSchema);
    const device = makeDevice(1);
    delete device.state;
    expect(accepts({ data: [makeDevice(0), device], totalElements: 2 })).toBe(false);
  });

  it('accepts a missing optional key but judges an optional key that is present', () => {
    const schema = z.object({ name: z.string().optional(), count: z.int().nullish() });
    const { accepts } = compileValidator(schema);
    expect(accepts({})).toBe(true);
    expect(accepts({ name: undefined, count: null })).toBe(true);
    expect(accepts({ name: 3 })).toBe(false);
    expect(accepts({ count: 1.5 })).toBe(false);
  });

  it('refuses a missing key whose schema takes undefined unless it is optional, as zod does', () => {
    const schema = z.object({ details: z.unknown(), note: z.unknown().optional() });
    const { accepts } = compileValidator(schema);
    for (const value of [{}, { details: undefined }, { details: 1, note: undefined }, { note: 1 }])
      expect(accepts(value)).toBe(schema.safeParse(value).success);
    expect(accepts({})).toBe(false);
  });

  it('refuses an unknown key of a strict object and keeps every key of a loose one', () => {
    const strict = compileValidator(z.strictObject({ active: z.boolean().optional() })).accepts;
    const loose = compileValidator(z.looseObject({ active: z.boolean() })).accepts;
    expect(strict({ active: true })).toBe(true);
    expect(strict({ active: true, extra: 1 })).toBe(false);
    expect(loose({ active: false, extra: 1 })).toBe(true);
  });

  it('counts string lengths in code points, as zod does', () => {
    const schema = z.string().min(2).max(3);
    const { accepts } = compileValidator(schema);
    for (const text of [
      'a',
      '\uD83D\uDE00',
      '\uD83D\uDE00a',
      'ab',
      '\uD800\uD800',
      'abcd',
      '😀😀😀',
      '😀😀😀😀',
    ])
      expect(accepts(text)).toBe(schema.safeParse(text).success);
    expect(codePointLength('a😀\uD800')).toBe(3);
  });

  it('applies integer formats, bounds, regexes, enums and literals as zod does', () => {
    const schema = z.object({
      port: z.int().min(1).max(65535),
      ratio: z.number().gt(0).lt(1),
      small: z.int32(),
      name: z.string().regex(/^[a-z]+$/g),
      mode: z.enum(['ASC', 'DESC']),
      kind: z.literal('GATEWAY'),
      tags: z.array(z.string()).min(1).max(2),
      nothing: z.null(),
    });
    const { accepts, delegated } = compileValidator(schema);
    expect(delegated).toEqual([]);
    const valid = {
      port: 22,
      ratio: 0.5,
      small: -5,
      name: 'abc',
      mode: 'ASC',
      kind: 'GATEWAY',
      tags: ['a'],
      nothing: null,
    };
    const variants: Array<Record<string, unknown>> = [
      valid,
      { ...valid, port: 0 },
      { ...valid, port: 65536 },
      { ...valid, port: 22.5 },
      { ...valid, ratio: 1 },
      { ...valid, small: 2 ** 31 },
      { ...valid, name: 'ABC' },
      { ...valid, mode: 'asc' },
      { ...valid, kind: 'DEVICE' },
      { ...valid, tags: [] },
      { ...valid, tags: ['a', 'b', 'c'] },
      { ...valid, tags: [1] },
      { ...valid, nothing: undefined },
    ];
    for (const variant of variants) expect(accepts(variant)).toBe(schema.safeParse(variant).success);
    // A global regex keeps lastIndex between calls; the check must not depend on the previous call.
    expect([accepts(valid), accepts(valid), accepts(valid)]).toEqual([true, true, true]);
  });

  it('accepts what any option of a union accepts, as zod does', () => {
    const schema = z.object({ cellid: z.union([z.string(), z.int()]).optional() });
    const { accepts, delegated } = compileValidator(schema);
    expect(delegated).toEqual([]);
    for (const cellid of ['0x1f', 31, 1.5, null, undefined])
      expect(accepts({ cellid })).toBe(schema.safeParse({ cellid }).success);
  });

  it('judges records key by key as zod does, symbols and __proto__ included', () => {
    const schemas = [
      z.record(z.string(), z.string()),
      z.looseRecord(z.string(), z.string()),
      z.partialRecord(z.enum(['0', '1']), z.int()),
      z.record(z.enum(['0', '1']), z.int().optional()),
    ];
    const values: unknown[] = [
      { a: 'x' },
      { 0: 1 },
      { 0: 1, 1: 2 },
      { 2: 3 },
      JSON.parse('{"__proto__": 5, "0": 1}'),
      { [Symbol('tag')]: 'x' },
      Object.create(null),
      new Date(0),
      [],
    ];
    for (const schema of schemas) {
      const { accepts, delegated } = compileValidator(schema);
      expect(delegated).toEqual([]);
      for (const value of values) expect(accepts(value)).toBe(schema.safeParse(value).success);
    }
  });

  it('hands a recursive schema back to zod where it meets itself', () => {
    const Folder = z.object({
      name: z.string(),
      get children(): z.ZodArray<typeof Folder> {
        return z.array(Folder);
      },
    });
    const { accepts, delegated } = compileValidator(Folder);
    expect(delegated).toEqual(['children[]']);
    const tree = { name: 'root', children: [{ name: 'a', children: [] }] };
    expect(accepts(tree)).toBe(true);
    expect(accepts({ name: 'root', children: [{ name: 1, children: [] }] })).toBe(false);
  });

  it('asks zod about a node it does not know and names it', () => {
    const schema = z.object({
      plain: z.string(),
      refined: z.string().refine((value) => value.startsWith('x')),
      counts: z.record(z.string().min(1), z.int()).optional(),
      tagged: z.discriminatedUnion('kind', [z.object({ kind: z.literal('a') })]).optional(),
    });
    const { accepts, delegated } = compileValidator(schema);
    expect(delegated).toEqual(['refined', 'counts', 'tagged']);
    expect(accepts({ plain: 'a', refined: 'xy', counts: { up: 2 } })).toBe(true);
    expect(accepts({ plain: 'a', refined: 'y' })).toBe(false);
    expect(accepts({ plain: 'a', refined: 'x', counts: { up: 1.5 } })).toBe(false);
    expect(accepts({ plain: 'a', refined: 'x', tagged: { kind: 'b' } })).toBe(false);
  });

  it('leaves the whole schema to zod where zod is told not to generate code', () => {
    z.config({ jitless: true });
    try {
      const { accepts, delegated } = compileValidator(DeviceListSchema);
      expect(delegated).toEqual(['(root)']);
      expect(accepts(SAMPLES[0]![2])).toBe(true);
      expect(accepts({ data: [{}], totalElements: 1 })).toBe(false);
    } finally {
      z.config({ jitless: false });
    }
  });

  it('keeps one compiled predicate per schema', () => {
    expect(validatorFor(DeviceListSchema)).toBe(validatorFor(DeviceListSchema));
  });

  it('compiles the answer of every endpoint and command so that it agrees with zod on awkward values', () => {
    const schemas = [
      ...ENDPOINT_NAMES.map((name) => endpoints[name].response as z.ZodType),
      ...Object.values(gatewayCommands).map((command) => command.response as z.ZodType),
    ];
    for (const schema of schemas) {
      const { accepts } = compileValidator(schema);
      for (const value of [...AWKWARD_VALUES, [{}], { data: [] }])
        expect(accepts(value)).toBe(schema.safeParse(value).success);
    }
  });
});
