import type { IpcClient } from '../../lib/ipc';
import type { Result } from '../../lib/wire-types';

/** An application seen on a device list: its id and the name the devices carry. */
export interface SeenApplication {
  id: string;
  name: string;
}

/**
 * The applications named on the devices of a customer (the API has no application list): one entry per
 * applicationId, sorted by name; none without a customer. A failed read is the call's error (the view says so;
 * the forms still take a typed id).
 */
export async function listSeenApplications(
  client: IpcClient,
  customerId: string | undefined,
): Promise<Result<SeenApplication[]>> {
  if (!customerId) return { ok: true, value: [] };
  const answer = await client.call('listCustomerDevices', { params: { customerId } });
  if (!answer.ok) return answer;
  const devices = answer.value.data;
  const seen = new Map<string, string>();
  for (const device of devices ?? []) {
    const id = device.applicationId?.id;
    if (id && !seen.has(id)) seen.set(id, device.applicationName || id);
  }
  const value = [...seen]
    .map(([id, name]) => ({ id, name }))
    .sort((left, right) => left.name.localeCompare(right.name));
  return { ok: true, value };
}
