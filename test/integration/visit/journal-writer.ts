// A process that records into the open visit of `<dataDir>` until told to stop: `node --import tsx
// journal-writer.ts <dataDir> <entries> <note length>`. Prints `acked <seq>` once each entry is on the disk, and
// `refused <error name> <code>: <message>` when an append is refused (then exits 0). The journal tests kill it,
// or limit the size of the files it may write.
import { JournalWriteError, Visits } from '../../../electron/services/visit';

const [dataDir, countText, lengthText] = process.argv.slice(2);
const visits = new Visits({ dataDir: dataDir! });
await visits.load();
if (!visits.current()) await visits.open({ site: 'Harbour warehouse roof' });
const filler = 'x'.repeat(Number(lengthText ?? '10'));
for (let index = 0; index < Number(countText); index += 1) {
  try {
    const line = await visits.append({ kind: 'note', text: `${index} ${filler}` });
    process.stdout.write(`acked ${line.seq}\n`);
  } catch (error) {
    const code = error instanceof JournalWriteError ? error.code : '';
    process.stdout.write(`refused ${(error as Error).name} ${code}: ${(error as Error).message}\n`);
    break;
  }
}
await visits.shutdown();
