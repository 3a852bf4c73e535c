// A check of a regex's shape for the two ways a backtracking engine (V8's irregexp) turns quadratic on a long run
// of characters, as found in issue 28's triage parsers:
// - a *moving start*: an unanchored pattern that begins with an unbounded repeat and can still fail after it
//   (`(\d+) packets…` retried a digit run from each of its characters);
// - *adjacent repeats*: two unbounded repeats over overlapping characters with nothing required between them
//   (`(.+?)\s*$`, `\s+(.*?),`), which try every split of a run between them.
// It reads the pattern source itself (a subset of the syntax: classes, escapes, groups, lookarounds,
// quantifiers), and treats a repeated or multi-branch group as opaque, so it can miss a hazard inside one but
// never invents one: each finding names the pattern and the two pieces.

interface Atom {
  kind: 'char' | 'assertion' | 'group';
  /** The atom's source without its quantifier. */
  source: string;
  min: number;
  max: number;
  /** A group's branches. */
  branches?: Atom[][];
  /** A lookaround or `(?:`/`(`. */
  isLookaround?: boolean;
}

/** Characters the overlap test tries: ASCII, Latin-1, and a few that matter to terminals. */
const SAMPLE_CHARACTERS = [
  ...Array.from({ length: 0x180 }, (_, code) => String.fromCharCode(code)),
  '\u2028',
  '\u2026',
  '\ufffd',
];

class Reader {
  index = 0;
  constructor(readonly source: string) {}
  get done(): boolean {
    return this.index >= this.source.length;
  }
  peek(offset = 0): string {
    return this.source[this.index + offset] ?? '';
  }
}

function readBranches(reader: Reader): Atom[][] {
  const branches: Atom[][] = [[]];
  while (!reader.done && reader.peek() !== ')') {
    if (reader.peek() === '|') {
      reader.index++;
      branches.push([]);
      continue;
    }
    const atom = readAtom(reader);
    readQuantifier(reader, atom);
    branches.at(-1)!.push(atom);
  }
  return branches;
}

function readAtom(reader: Reader): Atom {
  const start = reader.index;
  const character = reader.peek();
  if (character === '^' || character === '$') {
    reader.index++;
    return { kind: 'assertion', source: character, min: 1, max: 1 };
  }
  if (character === '\\') {
    reader.index += 2;
    const escaped = reader.source[start + 1]!;
    if (escaped === 'b' || escaped === 'B')
      return { kind: 'assertion', source: `\\${escaped}`, min: 1, max: 1 };
    if (escaped === 'x') reader.index += 2;
    if (escaped === 'u')
      reader.index += reader.peek() === '{' ? reader.source.indexOf('}', reader.index) - reader.index + 1 : 4;
    if (escaped === 'c') reader.index += 1;
    if (/[1-9]/.test(escaped))
      return { kind: 'group', source: reader.source.slice(start, reader.index), min: 1, max: 1 };
    return { kind: 'char', source: reader.source.slice(start, reader.index), min: 1, max: 1 };
  }
  if (character === '[') {
    reader.index++;
    if (reader.peek() === '^') reader.index++;
    if (reader.peek() === ']') reader.index++;
    while (!reader.done && reader.peek() !== ']') reader.index += reader.peek() === '\\' ? 2 : 1;
    reader.index++;
    return { kind: 'char', source: reader.source.slice(start, reader.index), min: 1, max: 1 };
  }
  if (character === '(') {
    reader.index++;
    let isLookaround = false;
    if (reader.peek() === '?') {
      const kind = reader.source.slice(reader.index, reader.index + 3);
      if (kind.startsWith('?:')) reader.index += 2;
      else if (kind.startsWith('?=') || kind.startsWith('?!')) {
        reader.index += 2;
        isLookaround = true;
      } else if (kind === '?<=' || kind === '?<!') {
        reader.index += 3;
        isLookaround = true;
      } else if (kind.startsWith('?<')) reader.index = reader.source.indexOf('>', reader.index) + 1;
    }
    const branches = readBranches(reader);
    reader.index++;
    return {
      kind: isLookaround ? 'assertion' : 'group',
      source: reader.source.slice(start, reader.index),
      min: 1,
      max: 1,
      branches,
      isLookaround,
    };
  }
  reader.index++;
  return {
    kind: 'char',
    source: character === '.' ? '.' : reader.source.slice(start, reader.index),
    min: 1,
    max: 1,
  };
}

function readQuantifier(reader: Reader, atom: Atom): void {
  const character = reader.peek();
  if (character === '*' || character === '+' || character === '?') {
    reader.index++;
    atom.min = character === '+' ? 1 : 0;
    atom.max = character === '?' ? 1 : Infinity;
  } else if (character === '{') {
    const match = /^\{(\d+)(,(\d*))?\}/.exec(reader.source.slice(reader.index));
    if (!match) return;
    reader.index += match[0].length;
    atom.min = Number(match[1]);
    atom.max = match[2] === undefined ? atom.min : match[3] === '' ? Infinity : Number(match[3]);
  } else return;
  if (reader.peek() === '?') reader.index++;
}

/** A plain group (not repeated, one branch) is only a sequence: its atoms join the sequence around it. */
function flatten(sequence: Atom[]): Atom[] {
  return sequence.flatMap((atom) =>
    atom.kind === 'group' && atom.branches?.length === 1 && atom.min === 1 && atom.max === 1
      ? flatten(atom.branches[0]!)
      : [atom],
  );
}

function overlaps(left: Atom, right: Atom, flags: string): string | undefined {
  const kept = [...flags].filter((flag) => 'isu'.includes(flag)).join('');
  const one = new RegExp(`^(?:${left.source})$`, kept);
  const other = new RegExp(`^(?:${right.source})$`, kept);
  return SAMPLE_CHARACTERS.find((character) => one.test(character) && other.test(character));
}

/** Every sequence of the pattern, flattened, each branch of each group included. */
function sequencesOf(branches: Atom[][]): Atom[][] {
  const all: Atom[][] = [];
  for (const branch of branches) {
    const sequence = flatten(branch);
    all.push(sequence);
    for (const atom of sequence) if (atom.branches) all.push(...sequencesOf(atom.branches));
  }
  return all;
}

/** The shape hazards of one pattern, in words; empty when none was found. */
export function findSuperLinearShapes(pattern: RegExp): string[] {
  const reader = new Reader(pattern.source);
  const branches = readBranches(reader);
  const findings: string[] = [];
  const name = `/${pattern.source}/${pattern.flags}`;
  if (!pattern.sticky) {
    for (const branch of branches) {
      const [first, ...rest] = flatten(branch);
      if (first?.kind !== 'char' || first.max !== Infinity) continue;
      const canFailAfter = rest.some((atom) => atom.kind === 'assertion' || atom.min > 0);
      if (canFailAfter)
        findings.push(`${name}: starts unanchored with ${first.source} repeated, and can fail after it`);
    }
  }
  for (const sequence of sequencesOf(branches)) {
    for (let left = 0; left < sequence.length; left++) {
      const first = sequence[left]!;
      if (first.kind !== 'char' || first.max !== Infinity) continue;
      for (let right = left + 1; right < sequence.length; right++) {
        const second = sequence[right]!;
        if (second.kind === 'char' && second.max === Infinity) {
          const shared = overlaps(first, second, pattern.flags);
          if (shared !== undefined)
            findings.push(
              `${name}: ${first.source} and ${second.source} repeat over the same characters (${JSON.stringify(shared)}) with nothing required between them`,
            );
        }
        if (second.min > 0 || second.kind === 'assertion') break;
      }
    }
  }
  return findings;
}

/**
 * Runs `work` (and waits for it) and returns every regex that ran meanwhile: through exec, which test, match,
 * replace and split all call once RegExp.prototype.exec is not the built-in one.
 */
export async function collectRegexesUsed(work: () => unknown): Promise<RegExp[]> {
  const used = new Set<RegExp>();
  const original = RegExp.prototype.exec;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    used.add(this);
    return original.call(this, text);
  };
  try {
    await work();
  } finally {
    RegExp.prototype.exec = original;
  }
  return [...used];
}
