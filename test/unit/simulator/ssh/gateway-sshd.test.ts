import { describe, expect, it } from 'vitest';
import { ExecOutputFilter } from '../../../../simulator/ssh/gateway-sshd';

const PROMPT = 'root@kona:~# ';

describe('ExecOutputFilter', () => {
  it('passes only what the command printed between its echo and the next prompt', () => {
    const filter = new ExecOutputFilter(PROMPT);
    expect(filter.push('uname -a\r\nLinux kona 4.14\r\n' + PROMPT)).toEqual({
      output: 'Linux kona 4.14\r\n',
      isDone: true,
    });
  });

  it('finds a prompt split across chunks without passing any part of it', () => {
    const filter = new ExecOutputFilter(PROMPT);
    const first = filter.push('hostname\r\nkona\r\nroot@ko');
    const second = filter.push('na:~# ');
    expect(first).toEqual({ output: 'kona\r\n', isDone: false });
    expect(second).toEqual({ output: '', isDone: true });
  });

  it('waits for the end of the echoed command line before passing output', () => {
    const filter = new ExecOutputFilter(PROMPT);
    expect(filter.push('upt')).toEqual({ output: '', isDone: false });
    expect(filter.push('ime\r\n 10:00 up')).toEqual({ output: ' 10:00 up', isDone: false });
  });

  it('streams a long output as it comes', () => {
    const filter = new ExecOutputFilter(PROMPT);
    filter.push('flood 1\r\n');
    expect(filter.push('A'.repeat(100)).output).toBe('A'.repeat(100));
  });
});
