export * from './runbook-runs';
export * from './runbook-store';
