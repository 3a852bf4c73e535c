import { t, type MessageKey } from '../../lib/i18n';

/** What the user asked of the clipboard, as the callers name it. */
export type ClipboardAction = 'copy the path' | 'copy the ID' | 'copy' | 'paste';

const REFUSALS: Record<ClipboardAction, MessageKey> = {
  'copy the path': 'terminals:clipboardRefusedCopyPath',
  'copy the ID': 'terminals:clipboardRefusedCopyId',
  copy: 'terminals:clipboardRefusedCopy',
  paste: 'terminals:clipboardRefusedPaste',
};

/** Says, for the user, that the system refused the clipboard: `Could not <what>: the system refused … (<why>).` */
export function describeClipboardRefusal(what: ClipboardAction, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return t(REFUSALS[what], { reason: why });
}
