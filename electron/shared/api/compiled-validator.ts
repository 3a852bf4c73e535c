import { z } from 'zod';
import { util } from 'zod/v4/core';

/** A yes/no check of a value against a schema: true exactly when `schema.safeParse(value).success` is. */
export type Validator = (value: unknown) => boolean;

/** A schema compiled to a plain predicate, and what the predicate still asks zod. */
export interface CompiledValidator {
  accepts: Validator;
  /**
   * Paths (`data[].id`, `(root)`) of the nodes the compiler does not know and asks zod about on every call
   * (transforms, refinements, defaults, discriminated unions...). Empty when the whole schema runs without zod. When code
   * generation is not allowed (a renderer's CSP, zod's `jitless`), the whole schema is asked of zod: `(root)`.
   */
  delegated: string[];
}

// The zod 4 internals read here (`_zod.def`, `_zod.traits`, `optin`/`optout`, `values`) are the ones zod's own
// object parser reads. A node or check that is not on the lists below is delegated to zod, never guessed.
interface NodeInternals {
  def: {
    type: string;
    checks?: Array<{ _zod: CheckInternals }>;
    coerce?: boolean;
    shape?: Record<PropertyKey, z.ZodType>;
    catchall?: z.ZodType;
    element?: z.ZodType;
    innerType?: z.ZodType;
    options?: z.ZodType[];
    keyType?: z.ZodType;
    valueType?: z.ZodType;
    mode?: string;
    partial?: boolean;
    format?: string;
  };
  traits: Set<string>;
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  values?: Set<unknown>;
}
interface CheckInternals {
  def: {
    check: string;
    when?: unknown;
    value?: unknown;
    inclusive?: boolean;
    minimum?: number;
    maximum?: number;
    length?: number;
    format?: string;
    pattern?: RegExp;
  };
  traits: Set<string>;
}

/**
 * The core traits (zod's `$Zod…` classes) each known node type may carry. A node with any other core trait is a
 * subclass with rules of its own (a string format, an exact optional, an exclusive or discriminated union) and
 * is delegated, so that a zod release adding one cannot be misread.
 */
const KNOWN_TRAITS: Record<string, ReadonlySet<string>> = {
  string: new Set(['$ZodType', '$ZodString']),
  number: new Set(['$ZodType', '$ZodNumber', '$ZodNumberFormat', '$ZodCheck', '$ZodCheckNumberFormat']),
  boolean: new Set(['$ZodType', '$ZodBoolean']),
  null: new Set(['$ZodType', '$ZodNull']),
  unknown: new Set(['$ZodType', '$ZodUnknown']),
  any: new Set(['$ZodType', '$ZodAny']),
  never: new Set(['$ZodType', '$ZodNever']),
  enum: new Set(['$ZodType', '$ZodEnum']),
  literal: new Set(['$ZodType', '$ZodLiteral']),
  nullable: new Set(['$ZodType', '$ZodNullable']),
  optional: new Set(['$ZodType', '$ZodOptional']),
  array: new Set(['$ZodType', '$ZodArray']),
  object: new Set(['$ZodType', '$ZodObject', '$ZodObjectJIT']),
  union: new Set(['$ZodType', '$ZodUnion']),
  record: new Set(['$ZodType', '$ZodRecord']),
  less_than: new Set(['$ZodCheck', '$ZodCheckLessThan']),
  greater_than: new Set(['$ZodCheck', '$ZodCheckGreaterThan']),
  min_length: new Set(['$ZodCheck', '$ZodCheckMinLength']),
  max_length: new Set(['$ZodCheck', '$ZodCheckMaxLength']),
  length_equals: new Set(['$ZodCheck', '$ZodCheckLengthEquals']),
  string_format: new Set(['$ZodCheck', '$ZodCheckStringFormat', '$ZodCheckRegex']),
};

/** True when every core trait of a node or check is one its kind is known to carry. */
function hasKnownTraits(kind: string, traits: Set<string>): boolean {
  const known = KNOWN_TRAITS[kind];
  if (!known) return false;
  for (const trait of traits) if (trait.startsWith('$') && !known.has(trait)) return false;
  return true;
}

function internalsOf(schema: z.ZodType): NodeInternals {
  return (schema as unknown as { _zod: NodeInternals })._zod;
}

// zod's default `when` of the length checks (run on any non-nullish value with a length) is module-private; a
// check built here carries it, so that a check given any other `when` is recognised and delegated.
const DEFAULT_LENGTH_WHEN = internalsOf(z.string().min(1)).def.checks?.[0]?._zod.def.when;

const NUMBER_FORMAT_RANGES: Record<string, readonly [number, number]> = {
  safeint: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  int32: [-2147483648, 2147483647],
  uint32: [0, 4294967295],
  float32: [-3.4028234663852886e38, 3.4028234663852886e38],
  float64: [-Number.MAX_VALUE, Number.MAX_VALUE],
};

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/** Length of a string in code points as zod's length checks count it: a pair is one, a lone surrogate one. */
export function codePointLength(text: string): number {
  const units = text.length;
  if (!HIGH_SURROGATE.test(text)) return units;
  let count = units;
  for (let index = 0; index < units - 1; index++) {
    if ((text.charCodeAt(index) & 0xfc00) === 0xd800 && (text.charCodeAt(index + 1) & 0xfc00) === 0xdc00) {
      count--;
      index++;
    }
  }
  return count;
}

/** zod's test of a plain object for records: an object (not an array) whose constructor, if any, is plain. */
function isPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const constructor = (value as { constructor?: unknown }).constructor;
  if (constructor === undefined || typeof constructor !== 'function') return true;
  const prototype = (constructor as { prototype?: unknown }).prototype;
  if (typeof prototype !== 'object' || prototype === null || Array.isArray(prototype)) return false;
  return Object.prototype.hasOwnProperty.call(prototype, 'isPrototypeOf');
}

/** A number as a JavaScript literal that reads back as the same number. */
function numberLiteral(value: number): string {
  return Object.is(value, -0) ? '-0' : `(${String(value)})`;
}

/** Writes the body of one generated predicate: statements that `return false` at the first failure. */
class PredicateWriter {
  readonly delegated: string[] = [];
  private readonly lines: string[] = [];
  private readonly references: unknown[] = [];
  private names = 0;

  /** @param enclosing the schemas being written around this one: a schema met again inside itself is recursive. */
  constructor(private readonly enclosing = new Set<z.ZodType>()) {}

  /** Writes the check of `schema` on the value in `variable` (zod is asked for a node it does not know). */
  write(schema: z.ZodType, variable: string, path: string): void {
    // A recursive schema (an object getter naming itself) would be written forever: zod walks it instead.
    if (!this.enclosing.has(schema)) {
      this.enclosing.add(schema);
      const written = this.writeKnown(schema, variable, path);
      this.enclosing.delete(schema);
      if (written) return;
    }
    this.delegated.push(path || '(root)');
    const ask = this.reference((value: unknown) => schema.safeParse(value).success);
    this.line(`if (!${ask}(${variable})) return false;`);
  }

  /** The finished predicate. */
  build(): Validator {
    const source = `"use strict"; return function accepts(v0) {\n${this.lines.join('\n')}\nreturn true;\n};`;
    // Generated from the schema's own structure: keys are JSON-quoted, every other value is a reference.
    const factory = new Function('references', source) as (references: unknown[]) => Validator;
    return factory(this.references);
  }

  private line(text: string): void {
    this.lines.push(text);
  }

  private name(prefix: string): string {
    return `${prefix}${++this.names}`;
  }

  private reference(value: unknown): string {
    this.references.push(value);
    return `references[${this.references.length - 1}]`;
  }

  private writeKnown(schema: z.ZodType, variable: string, path: string): boolean {
    const internals = internalsOf(schema);
    const { def } = internals;
    if (def.coerce || !hasKnownTraits(def.type, internals.traits)) return false;
    switch (def.type) {
      case 'string':
        return this.writeLeaf(internals, `typeof ${variable} === "string"`, variable, 'string');
      case 'number':
        return this.writeLeaf(
          internals,
          `typeof ${variable} === "number" && Number.isFinite(${variable})`,
          variable,
          undefined,
        );
      case 'boolean':
        return this.writeLeaf(internals, `typeof ${variable} === "boolean"`, variable, undefined);
      case 'null':
        return this.writeLeaf(internals, `${variable} === null`, variable, undefined);
      case 'unknown':
      case 'any':
        return this.writeLeaf(internals, 'true', variable, undefined);
      case 'enum':
      case 'literal': {
        if (!internals.values) return false;
        const values = this.reference(internals.values);
        return this.writeLeaf(internals, `${values}.has(${variable})`, variable, undefined);
      }
      case 'nullable': {
        if (def.checks?.length) return false;
        this.line(`if (${variable} !== null) {`);
        this.write(def.innerType!, variable, path);
        this.line('}');
        return true;
      }
      case 'optional': {
        // A defaulted inner substitutes a value for undefined: that is zod's to do.
        if (def.checks?.length || internalsOf(def.innerType!).optin === 'defaulted') return false;
        this.line(`if (${variable} !== undefined) {`);
        this.write(def.innerType!, variable, path);
        this.line('}');
        return true;
      }
      case 'array':
        return this.writeArray(internals, variable, path);
      case 'union':
        return this.writeUnion(internals, variable, path);
      case 'record':
        return this.writeRecord(internals, variable, path);
      case 'object':
        return this.writeObject(internals, variable, path);
      default:
        return false;
    }
  }

  /** A type test and the node's checks; false (nothing written) when a check is unknown. */
  private writeLeaf(
    internals: NodeInternals,
    typeTest: string,
    variable: string,
    lengthKind: 'string' | 'array' | undefined,
  ): boolean {
    const conditions = this.checkConditions(internals, variable, lengthKind);
    if (!conditions) return false;
    if (typeTest !== 'true') this.line(`if (!(${typeTest})) return false;`);
    for (const condition of conditions) this.line(`if (!(${condition})) return false;`);
    return true;
  }

  private writeArray(internals: NodeInternals, variable: string, path: string): boolean {
    const conditions = this.checkConditions(internals, variable, 'array');
    if (!conditions) return false;
    this.line(`if (!Array.isArray(${variable})) return false;`);
    // zod runs the checks after the elements; for a yes/no answer the order does not matter.
    for (const condition of conditions) this.line(`if (!(${condition})) return false;`);
    const index = this.name('i');
    const element = this.name('v');
    this.line(`for (let ${index} = 0; ${index} < ${variable}.length; ${index}++) {`);
    this.line(`const ${element} = ${variable}[${index}];`);
    this.write(internals.def.element!, element, `${path}[]`);
    this.line('}');
    return true;
  }

  /** A plain union accepts what any of its options accepts (zod tries each in turn). */
  private writeUnion(internals: NodeInternals, variable: string, path: string): boolean {
    const options = internals.def.options;
    if (internals.def.checks?.length || !options || options.length === 0) return false;
    const predicates = options.map((option) => {
      const writer = new PredicateWriter(this.enclosing);
      writer.write(option, 'v0', path);
      this.delegated.push(...writer.delegated);
      return `${this.reference(writer.build())}(${variable})`;
    });
    this.line(`if (!(${predicates.join(' || ')})) return false;`);
    return true;
  }

  /**
   * A record keyed by any string, or by an enum or literal of strings (a partial record, or a full one whose
   * every key must be present), as zod's record parser walks it: a plain object, each own enumerable key but
   * `__proto__` judged by the key schema (a symbol fails a string key schema), each value by the value schema.
   */
  private writeRecord(internals: NodeInternals, variable: string, path: string): boolean {
    const { def } = internals;
    if (def.checks?.length || !def.keyType || !def.valueType) return false;
    if (def.mode !== undefined && def.mode !== 'strict' && def.mode !== 'loose') return false;
    const key = internalsOf(def.keyType);
    if (key.def.checks?.length || key.def.coerce || !hasKnownTraits(key.def.type, key.traits)) return false;
    let keys: Set<string> | undefined;
    if (key.def.type === 'enum' || key.def.type === 'literal') {
      if (!key.values || ![...key.values].every((value) => typeof value === 'string')) return false;
      keys = key.values as Set<string>;
    } else if (key.def.type !== 'string') return false;
    const loose = def.mode === 'loose';
    this.line(`if (!${this.reference(isPlainObject)}(${variable})) return false;`);
    if (keys && !def.partial) {
      // Every key of the enum must be there (its value judged even when missing); others are unknown keys.
      for (const name of keys) {
        if (name === '__proto__') continue;
        const value = this.name('v');
        this.line(`const ${value} = ${variable}[${JSON.stringify(name)}];`);
        this.write(def.valueType, value, `${path}.${name}`);
      }
      if (!loose) {
        const known = this.reference(keys);
        const name = this.name('k');
        this.line(`for (const ${name} in ${variable}) if (!${known}.has(${name})) return false;`);
      }
      return true;
    }
    const name = this.name('k');
    const value = this.name('v');
    const known = keys ? this.reference(keys) : undefined;
    this.line(`for (const ${name} of Reflect.ownKeys(${variable})) {`);
    this.line(
      `if (${name} === "__proto__" || !Object.prototype.propertyIsEnumerable.call(${variable}, ${name})) continue;`,
    );
    const keyTest = known
      ? `typeof ${name} === "string" && ${known}.has(${name})`
      : `typeof ${name} === "string"`;
    this.line(loose ? `if (!(${keyTest})) continue;` : `if (!(${keyTest})) return false;`);
    this.line(`const ${value} = ${variable}[${name}];`);
    this.write(def.valueType, value, `${path}[]`);
    this.line('}');
    return true;
  }

  private writeObject(internals: NodeInternals, variable: string, path: string): boolean {
    const { def } = internals;
    if (def.checks?.length) return false;
    const shape = def.shape ?? {};
    const keys = Object.keys(shape);
    if (Object.getOwnPropertySymbols(shape).length > 0 || keys.includes('__proto__')) return false;
    let refusesUnknownKeys = false;
    if (def.catchall) {
      const catchall = internalsOf(def.catchall);
      const catchallType = catchall.def.type;
      if (catchall.def.checks?.length || !hasKnownTraits(catchallType, catchall.traits)) return false;
      if (catchallType === 'never') refusesUnknownKeys = true;
      else if (catchallType !== 'unknown' && catchallType !== 'any') return false;
    }
    this.line(
      `if (typeof ${variable} !== "object" || ${variable} === null || Array.isArray(${variable})) return false;`,
    );
    for (const key of keys) {
      const field = shape[key]!;
      const { optin, optout } = internalsOf(field);
      const quoted = JSON.stringify(key);
      const value = this.name('v');
      this.line(`const ${value} = ${variable}[${quoted}];`);
      // As zod's handlePropertyResult: a key optional in and out may be missing whatever its schema says of
      // undefined; a key not optional in must be there (`key in input`, as zod tests it); a defaulted key that
      // is not optional out is judged on its value alone.
      const fieldPath = path ? `${path}.${key}` : key;
      if (optin !== undefined && optout === 'optional') {
        this.line(`if (${value} !== undefined || ${quoted} in ${variable}) {`);
        this.write(field, value, fieldPath);
        this.line('}');
        continue;
      }
      if (optin === undefined)
        this.line(`if (${value} === undefined && !(${quoted} in ${variable})) return false;`);
      this.write(field, value, fieldPath);
    }
    if (refusesUnknownKeys) {
      const known = this.reference(new Set(keys));
      const key = this.name('k');
      this.line(`for (const ${key} in ${variable}) if (!${known}.has(${key})) return false;`);
    }
    return true;
  }

  /** JavaScript conditions, one per check of the node, true when the check passes; undefined if one is unknown. */
  private checkConditions(
    internals: NodeInternals,
    variable: string,
    lengthKind: 'string' | 'array' | undefined,
  ): string[] | undefined {
    const conditions: string[] = [];
    if (internals.traits.has('$ZodCheck')) {
      // The node is itself a check, run before its other checks: only the number formats (z.int()...) are known.
      if (!internals.traits.has('$ZodCheckNumberFormat')) return undefined;
      const format = internals.def.format ?? 'float64';
      const range = NUMBER_FORMAT_RANGES[format];
      if (!range) return undefined;
      const [minimum, maximum] = range;
      const bounds = `${variable} >= ${numberLiteral(minimum)} && ${variable} <= ${numberLiteral(maximum)}`;
      conditions.push(format.includes('int') ? `Number.isSafeInteger(${variable}) && ${bounds}` : bounds);
    }
    for (const check of internals.def.checks ?? []) {
      const condition = this.checkCondition(check._zod, variable, lengthKind);
      if (condition === undefined) return undefined;
      conditions.push(condition);
    }
    return conditions;
  }

  private checkCondition(
    check: CheckInternals,
    variable: string,
    lengthKind: 'string' | 'array' | undefined,
  ): string | undefined {
    const { def, traits } = check;
    if (!hasKnownTraits(def.check, traits)) return undefined;
    switch (def.check) {
      case 'less_than':
      case 'greater_than': {
        if (def.when !== undefined || typeof def.value !== 'number') return undefined;
        const operator =
          def.check === 'less_than' ? (def.inclusive ? '<=' : '<') : def.inclusive ? '>=' : '>';
        return `${variable} ${operator} ${numberLiteral(def.value)}`;
      }
      case 'min_length':
      case 'max_length':
      case 'length_equals': {
        if (!lengthKind || def.when !== DEFAULT_LENGTH_WHEN) return undefined;
        const units = `${variable}.length`;
        if (lengthKind === 'array') {
          if (def.check === 'min_length') return `${units} >= ${numberLiteral(def.minimum!)}`;
          if (def.check === 'max_length') return `${units} <= ${numberLiteral(def.maximum!)}`;
          return `${units} === ${numberLiteral(def.length!)}`;
        }
        // Strings are measured in code points; a code point is one or two units, so most strings are decided
        // by their unit length and only the ones in between are counted.
        const count = `${this.reference(codePointLength)}(${variable})`;
        if (def.check === 'min_length') {
          const minimum = numberLiteral(def.minimum!);
          return `${units} >= ${minimum} && (${units} >= 2 * ${minimum} || ${count} >= ${minimum})`;
        }
        if (def.check === 'max_length') {
          const maximum = numberLiteral(def.maximum!);
          return `${units} <= ${maximum} || ${count} <= ${maximum}`;
        }
        return `${count} === ${numberLiteral(def.length!)}`;
      }
      case 'string_format': {
        if (def.format !== 'regex' || !traits.has('$ZodCheckRegex') || !def.pattern) return undefined;
        if (def.when !== undefined) return undefined;
        const pattern = this.reference(def.pattern);
        return `(${pattern}.lastIndex = 0, ${pattern}.test(${variable}))`;
      }
      default:
        return undefined;
    }
  }
}

/** True where zod itself generates code (not under `jitless`, not where a CSP forbids `new Function`). */
function isCodeGenerationAllowed(): boolean {
  return !z.config().jitless && util.allowsEval.value;
}

/**
 * Compiles a zod schema to a predicate that accepts exactly what `schema.safeParse` accepts, without building
 * an output or issues: objects (strip, loose and strict), arrays, records, plain unions, strings, numbers and
 * integers, booleans, enums, literals, null, unknown, optional and nullable, with the length, bound and regex
 * checks. Any other node (transform, refinement, default, discriminated union...) is asked of zod in place and
 * listed in `delegated`. It reads zod 4's internals as zod's own parsers do; the differential tests against zod
 * (test/unit/shared/api/compiled-validator.test.ts) are what to run after a zod upgrade.
 */
export function compileValidator(schema: z.ZodType): CompiledValidator {
  if (!isCodeGenerationAllowed())
    return { accepts: (value) => schema.safeParse(value).success, delegated: ['(root)'] };
  const writer = new PredicateWriter();
  writer.write(schema, 'v0', '');
  return { accepts: writer.build(), delegated: writer.delegated };
}

const compiled = new WeakMap<z.ZodType, Validator>();

/** The compiled predicate of a schema, compiled on first use and kept as long as the schema lives. */
export function validatorFor(schema: z.ZodType): Validator {
  let accepts = compiled.get(schema);
  if (!accepts) {
    accepts = compileValidator(schema).accepts;
    compiled.set(schema, accepts);
  }
  return accepts;
}
