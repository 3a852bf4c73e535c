/** Says, for the user, that the system refused the clipboard: `Could not <what>: the system refused … (<why>).` */
export function describeClipboardRefusal(what: string, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return `Could not ${what}: the system refused the clipboard (${why}).`;
}
