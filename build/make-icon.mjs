#!/usr/bin/env node
// Draws the app icon (a gateway with radio waves on a rounded square) as build/icon.png, 512×512 RGBA, with no
// image library: pixels computed here, encoded with zlib. Run it again only to change the icon.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { ROOT } from './stale.mjs';

const SIZE = 512;
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer) {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function pixel(x, y) {
  const radius = 96;
  const cx = Math.min(Math.max(x, radius), SIZE - radius);
  const cy = Math.min(Math.max(y, radius), SIZE - radius);
  if (Math.hypot(x - cx, y - cy) > radius) return [0, 0, 0, 0];
  const centerX = SIZE / 2;
  const gatewayTop = 300;
  const white = [245, 248, 250, 255];
  // The gateway: a box with a mast.
  if (x > 176 && x < 336 && y > gatewayTop && y < 400) return white;
  if (x > 246 && x < 266 && y > 200 && y <= gatewayTop) return white;
  // Radio waves: three arcs above the mast.
  const distance = Math.hypot(x - centerX, y - 200);
  const angle = Math.atan2(200 - y, x - centerX);
  if (angle > Math.PI / 5 && angle < (4 * Math.PI) / 5) {
    for (const arc of [48, 96, 144]) if (Math.abs(distance - arc) < 10) return white;
  }
  const shade = Math.round(40 + (y / SIZE) * 40);
  return [18, 80 + shade, 150 + shade / 2, 255];
}

const rows = [];
for (let y = 0; y < SIZE; y += 1) {
  const row = Buffer.alloc(1 + SIZE * 4);
  for (let x = 0; x < SIZE; x += 1) Buffer.from(pixel(x, y)).copy(row, 1 + x * 4);
  rows.push(row);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8);
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(join(ROOT, 'build', 'icon.png'), png);
console.log(`wrote build/icon.png (${png.length} bytes)`);
