import { describe, expect, it } from 'vitest';
import { describeClipboardRefusal } from '../../../../renderer/src/views/terminals/clipboard';

describe('describeClipboardRefusal', () => {
  it('says what could not be done and why the system refused', () => {
    const refusal = new DOMException('Read permission denied.', 'NotAllowedError');
    expect(describeClipboardRefusal('paste', refusal)).toBe(
      'Could not paste: the system refused the clipboard (Read permission denied.).',
    );
    expect(describeClipboardRefusal('copy the path', 'no clipboard')).toBe(
      'Could not copy the path: the system refused the clipboard (no clipboard).',
    );
  });
});
