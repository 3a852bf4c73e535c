import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createVisitGateways } from '../../../electron/app/visit-gateways';
import { SitePacks } from '../../../electron/services/site-pack';
import { Visits, VisitRefusedError } from '../../../electron/services/visit';
import { NetworkError } from '../../../electron/services/api';
import { SYSTEM_CLOCK } from '../../../electron/shared/clock';
import { makeGateway, makeSessionSummary, makeSitePack } from '../../helpers/factories';

// The app's gateway resolver in field mode (nobody signed in): the selected profile's site pack on disk, the
// visit's journal on disk.

let dataDir: string;
let visits: Visits;
let sitePacks: SitePacks;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'fieldkit-visit-gateways-'));
  visits = new Visits({ dataDir });
  await visits.load();
  sitePacks = new SitePacks({ dataDir });
  await sitePacks.save(
    makeSitePack(20, {
      profileId: 'profile-1',
      gateways: Array.from({ length: 20 }, (_, index) =>
        makeGateway(index, { name: `acme-gw-${String(index).padStart(4, '0')}` }),
      ),
    }),
  );
});

afterEach(async () => {
  await visits.shutdown();
  await rm(dataDir, { recursive: true, force: true });
});

function fieldModeGateways() {
  return createVisitGateways({
    sessions: {
      summary: () => null,
      requireSession: () => {
        throw new Error('not signed in');
      },
    },
    selectedProfileId: () => 'profile-1',
    sitePacks,
    visits,
    clock: SYSTEM_CLOCK,
  });
}

describe('createVisitGateways in field mode', () => {
  it('names a gateway typed by its MAC by the site pack, and by its serial number', async () => {
    const gateways = fieldModeGateways();
    expect(await gateways.resolve({ typed: '00:80:00:00:00:0d' })).toEqual({
      gatewayId: 'gw-13',
      name: 'acme-gw-0013',
      mac: '00:80:00:00:00:0D',
      typed: '00:80:00:00:00:0d',
    });
    expect(await gateways.resolve({ typed: 'sn-7781' })).toMatchObject({ gatewayId: 'gw-0' });
  });

  it('lists a text only typed once until the technician picks its gateway, then resolves it to the pick', async () => {
    const gateways = fieldModeGateways();
    await visits.append({ kind: 'note', text: 'Box behind the chimney', gateway: { typed: 'roof box' } });
    await visits.append({
      kind: 'terminal-opened',
      sessionId: 's-1',
      transport: 'serial',
      title: 'roof box · 115200 8N1',
      gateway: { typed: 'Roof  Box' },
    });
    await visits.append({
      kind: 'terminal-opened',
      sessionId: 's-2',
      transport: 'serial',
      title: 'acme-gw-0003 · 115200 8N1',
      gateway: { gatewayId: 'gw-3', name: 'acme-gw-0003', mac: '00', typed: 'acme-gw-0003' },
    });
    expect(gateways.unidentified()).toEqual([{ typed: 'roof box', what: 'Note' }]);

    expect(await gateways.identify({ typed: 'roof box', gatewayId: 'gw-14', name: 'acme-gw-0014' })).toEqual({
      typed: 'roof box',
      gateway: { gatewayId: 'gw-14', name: 'acme-gw-0014', mac: '00:80:00:00:00:0E' },
    });
    expect(gateways.unidentified()).toEqual([]);
    expect(await gateways.resolve({ typed: 'ROOF BOX' })).toMatchObject({
      gatewayId: 'gw-14',
      typed: 'ROOF BOX',
    });
  });

  it('refuses a pick of a gateway neither the server nor the pack knows', async () => {
    const gateways = fieldModeGateways();
    await expect(
      gateways.identify({ typed: 'roof box', gatewayId: 'gw-404', name: 'made up' }),
    ).rejects.toBeInstanceOf(VisitRefusedError);
    expect(visits.current()).toBeNull();
  });

  it('searches the pack for the technician to pick from', async () => {
    const gateways = fieldModeGateways();
    expect((await gateways.search('acme-gw-001')).map((gateway) => gateway.gatewayId)).toEqual(
      Array.from({ length: 10 }, (_, index) => `gw-${10 + index}`),
    );
  });
});

describe('createVisitGateways signed in, when the server cannot be reached', () => {
  function signedInGateways(profileId: string) {
    return createVisitGateways({
      sessions: {
        summary: () => makeSessionSummary({ profileId, customerId: 'customer-1' }),
        requireSession: () => ({
          call: () =>
            Promise.reject(new NetworkError('listCustomerGateways', 'connect ECONNREFUSED 127.0.0.1:9')),
        }),
      },
      selectedProfileId: () => profileId,
      sitePacks,
      visits,
      clock: SYSTEM_CLOCK,
    });
  }

  it('fails the search rather than answering that no gateway matches, with no site pack to fall back on', async () => {
    await expect(signedInGateways('profile-without-pack').search('acme-gw-001')).rejects.toBeInstanceOf(
      NetworkError,
    );
  });

  it("searches the profile's site pack instead when it has one", async () => {
    const found = await signedInGateways('profile-1').search('acme-gw-0012');
    expect(found.map((gateway) => gateway.gatewayId)).toEqual(['gw-12']);
  });
});
