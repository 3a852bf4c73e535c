// A fleet apply in its own process, for tests that kill it mid-apply: signs in to the simulator at argv[2],
// applies a ping target to the gateways of argv[4] (JSON ids) with the audit log in the data folder argv[3], and
// with argv[5] `journal` also the open visit's journal there as the second recorder.
import { ApiClient } from '../../electron/services/api';
import { AuditLog } from '../../electron/services/audit';
import { FleetJob, type FleetChange } from '../../electron/services/fleet';
import { Session } from '../../electron/services/session';
import { VisitCommandJournal, Visits } from '../../electron/services/visit';
import { confirmedFor } from './fleet-confirmation';

const [url, dataDir, idsJson, recorders] = process.argv.slice(2);
const gatewayIds = JSON.parse(idsJson ?? '[]') as string[];
const session = new Session({ client: new ApiClient({ baseUrl: url ?? '' }) });
await session.login('provider@fieldkit.demo', 'demo-provider');
const change: FleetChange = { kind: 'pingTarget', ipAddr: '9.9.9.9' };
const targets = gatewayIds.map((gatewayId) => ({ gatewayId }));
const visits = new Visits({ dataDir: dataDir ?? '' });
await visits.load();
const job = new FleetJob(change, targets, {
  commander: session,
  profileId: 'demo',
  user: 'provider@fieldkit.demo',
  audit: new AuditLog({ dataDir: dataDir ?? '' }),
  ...(recorders === 'journal' ? { journal: new VisitCommandJournal(visits) } : {}),
  confirmation: confirmedFor(change, targets),
});
console.log('fleet apply started');
await job.run();
console.log(`fleet apply finished: ${JSON.stringify(job.table.map((row) => row.reason))}`);
