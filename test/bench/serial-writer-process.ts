// The far end of the serial benchmark's pty, in a process of its own as a device on the other end of a cable is:
// `serial-writer-process.ts <path> <megabytes>` opens the pty, prints `ready`, and for each `go` line on stdin writes
// the serial payload (serialPayload) into it, one chunk at a time as the pty takes it, then prints `written`. It
// closes the pty and exits when stdin ends.
import { createInterface } from 'node:readline';
import { autoDetect } from '@serialport/bindings-cpp';
import { serialPayload } from './serial-payload';

const WRITE_CHUNK_BYTES = 65_536;

const [path, megabytes] = process.argv.slice(2);
const { payload } = serialPayload(Number(megabytes));
const port = await autoDetect().open({ path: path!, baudRate: 115_200 });
const lines = createInterface({ input: process.stdin });
console.log('ready');
for await (const line of lines) {
  if (line !== 'go') continue;
  for (let offset = 0; offset < payload.length; offset += WRITE_CHUNK_BYTES) {
    await port.write(payload.subarray(offset, offset + WRITE_CHUNK_BYTES));
  }
  console.log('written');
}
await port.close();
