import type { z } from 'zod';

/** One failing field: its path in dotted form (`configuration.port`, `apns[2].name`) and what is wrong. */
export interface FieldIssue {
  path: string;
  message: string;
}

/** Writes a zod path as `a.b[2].c`; the root is `(body)` so a message always names something. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text ? `.${String(segment)}` : String(segment);
  }
  return text || '(root)';
}

/** Lists every failing field of a zod error, in the order zod found them. */
export function describeIssues(error: z.ZodError, prefix: readonly PropertyKey[] = []): FieldIssue[] {
  return error.issues.flatMap((issue) => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: formatPath([...path, key]),
        message: `unknown field "${key}"`,
      }));
    }
    return [{ path: formatPath(path), message: issue.message }];
  });
}

/** One line naming each failing field, for an error body or a log. */
export function summarizeIssues(issues: readonly FieldIssue[]): string {
  return issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ');
}

/**
 * Deepest nesting of arrays and objects an answer may have. The spec's deepest answer is a handful of levels;
 * a deeper one (a few KB of `[[[[…`) would make `JSON.stringify`, structured clone and recursive walks overflow
 * the stack, so it is refused before anything else looks at it.
 */
export const MAX_ANSWER_DEPTH = 64;

/**
 * True when `value` nests arrays and objects more than `limit` levels deep (a top-level object is level 1).
 * Recurses at most `limit + 1` calls deep, however deep the value: the walk stops at the first node too deep.
 */
export function isNestedDeeperThan(value: unknown, limit: number): boolean {
  return typeof value === 'object' && value !== null && isDeeper(value, limit);
}

/** True when `node` (an array or object) holds more than `levelsLeft - 1` levels below it. */
function isDeeper(node: object, levelsLeft: number): boolean {
  if (levelsLeft === 0) return true;
  if (Array.isArray(node)) {
    for (let index = 0; index < node.length; index++) {
      const item: unknown = node[index];
      if (typeof item === 'object' && item !== null && isDeeper(item, levelsLeft - 1)) return true;
    }
    return false;
  }
  for (const key in node) {
    const item = (node as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null && isDeeper(item, levelsLeft - 1)) return true;
  }
  return false;
}
