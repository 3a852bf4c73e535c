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
