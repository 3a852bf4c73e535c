/** The last part of a path (the full path is the link's title and what Copy path copies). */
export function fileNameOf(path: string): string {
  return path.split(/[/\\]/).pop() ?? path;
}
