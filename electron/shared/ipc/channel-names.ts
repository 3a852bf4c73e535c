// Plain lists of the contract's names, without zod, for the sandboxed preload (which bundles what it imports).
// test/unit/shared/ipc/parity.test.ts fails when these differ from contract.ts.

/** Every channel name of the contract. */
export const CHANNEL_NAMES = [
  'app:info',
  'app:notices',
  'app:language',
  'profiles:list',
  'profiles:save',
  'profiles:delete',
  'profiles:select',
  'profiles:trust-certificate',
  'session:login',
  'session:resume',
  'session:get',
  'server:check',
  'session:logout',
  'api:call',
  'gateway:command',
  'call:cancel',
  // gateways (domains/gateways.ts)
  'cache:get',
  // integrations (domains/integrations.ts)
  'integrations:test',
  // wizards (domains/wizards.ts)
  'wizard:start',
  'wizard:read',
  'wizard:review',
  'wizard:apply',
  // gateway tasks and the RF meter (domains/tasks.ts)
  'gateway-task:run',
  'rf-meter:start',
  'rf-meter:stop',
  // fleet jobs (domains/fleet.ts)
  'fleet:preview',
  'fleet:start',
  'fleet:retry-failed',
  // the audit log (domains/audit.ts) and the site report (domains/report.ts)
  'audit:read',
  'report:export',
  'report:preview',
  'report:gateways',
  'report:lines',
  // terminals (domains/terminals.ts)
  'terminals:list',
  'terminals:attach',
  'serial:ports',
  'serial:open',
  'ssh:open-reverse',
  'ssh:open-direct',
  'ssh:replace-host-key',
  'terminal:write',
  'terminal:resize',
  'terminal:ack',
  'terminal:close',
  'terminal:reconnect',
  'serial:break',
  'serial:signals',
  'serial:paste',
  'serial:raw-view',
  'serial:triage',
  'serial:triage-cancel',
  'serial:disconnect',
  'serial:send-file',
  'serial:send-file-cancel',
  // site pack (domains/site-pack.ts)
  'site-pack:status',
  'site-pack:prepare',
  'site-pack:gateway',
  // visit (domains/visit.ts)
  'visit:list',
  'visit:open',
  'visit:close',
  'visit:current',
  'visit:update',
  'visit:note',
  'visit:photo-add',
  'visit:photo',
  'visit:photo-remove',
  'visit:acknowledge',
  'visit:verify-bundle',
  'visit:unidentified',
  'visit:gateway-search',
  'visit:identify-gateway',
  // customers (domains/customers.ts)
  'customers:list',
  'customers:add',
  // customer settings (domains/customer-settings.ts)
  'customer:token-lifetimes-read',
  'customer:token-lifetimes-save',
  // runbooks (domains/runbooks.ts)
  'runbooks:list',
  'runbooks:save',
  'runbooks:delete',
  'runbooks:export',
  'runbooks:import',
  'runbooks:run',
  // acceptance (domains/acceptance.ts)
  'acceptance:start',
  'acceptance:status',
  'acceptance:cards',
  'acceptance:offline',
  'acceptance:thresholds-read',
  'acceptance:thresholds-save',
  'acceptance:thresholds-clear',
] as const;

/** Every event name of the contract. */
export const EVENT_NAME_LIST = [
  'session:changed',
  'app:notice',
  'server:status',
  // gateways (domains/gateways.ts)
  // integrations (domains/integrations.ts)
  // wizards (domains/wizards.ts)
  'wizard:event',
  // gateway tasks and the RF meter (domains/tasks.ts)
  'gateway-task:event',
  'rf-meter:sample',
  'rf-meter:error',
  // fleet jobs (domains/fleet.ts)
  'fleet:row',
  'fleet:finished',
  // terminals (domains/terminals.ts)
  'terminal:data',
  'terminal:state',
  'serial:triage-progress',
  'serial:send-file-progress',
  // site pack (domains/site-pack.ts)
  'site-pack:progress',
  // visit (domains/visit.ts)
  'visit:changed',
  // customers (domains/customers.ts)
  'customers:changed',
  // runbooks (domains/runbooks.ts)
  'runbook:progress',
  // acceptance (domains/acceptance.ts)
  'acceptance:progress',
] as const;
