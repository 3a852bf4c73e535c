const BYTES_PER_LINE = 16;

/**
 * Formats received bytes as hex dump lines for the terminal (`48 65 6c …  |Hel…|` + CRLF), 16 bytes a line,
 * printable ASCII shown on the right and everything else as a dot. Each chunk starts a new line.
 */
export function formatHexLines(bytes: Uint8Array): string {
  let output = '';
  for (let start = 0; start < bytes.length; start += BYTES_PER_LINE) {
    const line = bytes.subarray(start, start + BYTES_PER_LINE);
    const hex = [...line].map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
    const text = [...line]
      .map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.'))
      .join('');
    output += `${hex.padEnd(BYTES_PER_LINE * 3 - 1)}  |${text}|\r\n`;
  }
  return output;
}
