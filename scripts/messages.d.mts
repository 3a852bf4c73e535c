/** The folder of the message catalogue's JSON files (one folder per language, and descriptions/). */
export const MESSAGES_DIR: string;
/** Every problem of the catalogue under `dir` (default MESSAGES_DIR), one line each; empty when complete. */
export function checkCatalogue(dir?: string): string[];
