import { describe, expect, it } from 'vitest';
import { linkToOpen } from '../../../../renderer/src/views/terminals/terminal-links';

describe('links printed in a terminal', () => {
  it('offers an http(s) link in full, query and fragment included', () => {
    expect(linkToOpen('https://docs.example.com/a?b=1#c')).toBe('https://docs.example.com/a?b=1#c');
    expect(linkToOpen('http://192.168.1.1:8080/')).toBe('http://192.168.1.1:8080/');
  });

  it('offers no other scheme, no link carrying credentials and nothing that is not a URL', () => {
    for (const printed of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'smb://share/x',
      'ms-settings:privacy',
      'https://user:pass@example.com/',
      'https://',
      'not a link',
    ]) {
      expect(linkToOpen(printed), printed).toBeNull();
    }
  });
});
