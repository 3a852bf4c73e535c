const BYTES_PER_LINE = 16;

/**
 * Formats bytes like `hexdump -C`: an 8-digit hex address (starting at `offset`), 16 bytes in two groups of
 * eight, then the printable ASCII (others as '.'). Lines are joined with '\n'; no trailing newline.
 */
export function formatHexDump(bytes: Uint8Array, offset = 0): string {
  const lines: string[] = [];
  for (let start = 0; start < bytes.length; start += BYTES_PER_LINE) {
    const row = bytes.subarray(start, start + BYTES_PER_LINE);
    const hex: string[] = [];
    for (let column = 0; column < BYTES_PER_LINE; column += 1) {
      const byte = row[column];
      hex.push(byte === undefined ? '  ' : byte.toString(16).padStart(2, '0'));
      if (column === 7) hex.push('');
    }
    const text = Array.from(row, (byte) =>
      byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.',
    ).join('');
    const address = ((offset + start) >>> 0).toString(16).padStart(8, '0');
    lines.push(`${address}  ${hex.join(' ')}  |${text}|`);
  }
  return lines.join('\n');
}
