import { describe, expect, it } from 'vitest';
import { checkRunbookPattern } from '../../../../electron/shared/terminal/runbook-pattern';

describe('checkRunbookPattern', () => {
  it.each([
    '^running$',
    'login: $',
    '[#$] $',
    'pkt_fwd\\[[0-9]+\\]',
    '(?:up|down) [0-9]{1,3}%',
    'a.*bc?',
    'eth0:? ?(?:up)?',
  ])('accepts %s', (pattern) => {
    expect(checkRunbookPattern(pattern)).toBeUndefined();
  });

  it.each([
    ['(a+)+$', /repeated group may not itself repeat/],
    ['(x|xy)*z', /repeated group may not itself repeat or hold alternatives/],
    ['(\\w+\\s?)*$', /repeated group/],
    ['.*.*=', /may repeat \(\*, \+ or \{…\}\) only once/],
    ['a?a?a?a?aaaa', /at most 3 optional parts/],
    ['(a)\\1', /refer back/],
    ['foo(?=bar)', /look ahead or behind/],
    ['[unclosed', /Not a valid pattern/],
    ['', /Enter a pattern/],
    ['a'.repeat(201), /at most 200 characters/],
  ])('refuses %s', (pattern, message) => {
    expect(checkRunbookPattern(pattern)).toMatch(message);
  });

  it('reads brackets and escapes as literals, not as groups', () => {
    expect(checkRunbookPattern('[(|*]\\(x+\\)')).toBeUndefined();
  });
});
