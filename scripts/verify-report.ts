// `npm run verify-report -- <bundle folder>`: checks an exported site report bundle offline (docs/site-report.md).
// Exit 0: intact; 1: something was changed, added or removed (each named, the first first); 2: usage.
import { resolve } from 'node:path';
import { verifyBundle } from '../electron/services/visit/verify-bundle';

const folder = process.argv[2];
if (!folder || process.argv.length > 3) {
  console.error('usage: npm run verify-report -- <bundle folder>');
  process.exit(2);
}
const verdict = await verifyBundle(resolve(folder));
if (verdict.isIntact) {
  console.log(`Intact: ${verdict.entries} journal entries, every photo, log and report file as exported.`);
  console.log(`Journal head (compare with the report's last page): ${verdict.head}`);
  process.exit(0);
}
console.log(`NOT intact: ${verdict.problems[0]}`);
for (const problem of verdict.problems.slice(1)) console.log(`  also: ${problem}`);
if (verdict.head) console.log(`Journal head as bundled: ${verdict.head}`);
process.exit(1);
