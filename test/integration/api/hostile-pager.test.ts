// Issue 28: a hostile server's paging, through the real client and session on loopback, against the two
// expansions that walk whole lists — a gateway group's targets and a site pack's gateway list.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ApiClient,
  ListRefusedError,
  MAX_LIST_BYTES,
  RequestAbortedError,
} from '../../../electron/services/api';
import { GROUP_PAGE_SIZE, listGroupTargets } from '../../../electron/services/fleet';
import { Session } from '../../../electron/services/session';
import {
  PackCancelledError,
  PACK_CONCURRENCY,
  PACK_LIST_PAGE_SIZE,
  prepareSitePack,
} from '../../../electron/services/site-pack';
import { startFakeOamServer, type FakeOamServer } from '../../helpers/fake-oam-server';
import { answerHostilePaging, pageQueryOf, type HostilePaging } from '../../helpers/hostile-pager';

let server: FakeOamServer;
let session: Session;
let paging: HostilePaging = { kind: 'forever' };
/** Page requests as they arrive; a test may hold one by answering false. */
let onPage: (page: number, response: ServerResponse) => boolean = () => true;

/** The page requests of this server that list `owner`'s gateways (each test lists its own, so none of an
 * earlier test's cancelled requests, arriving late, is counted). */
const pageRequests = (owner: string) =>
  server.requests.filter((request) => request.url.includes(`/${owner}/gateways?`));

beforeAll(async () => {
  server = await startFakeOamServer(
    answerHostilePaging(
      () => paging,
      (page, response) => onPage(page, response),
    ),
  );
  session = new Session({ client: new ApiClient({ baseUrl: server.url }) });
  await session.login('tech@acme.test', 'secret');
});

afterAll(async () => {
  await server?.close();
});

beforeEach(() => {
  server.requests.length = 0;
  onPage = () => true;
});

describe('expanding a gateway group from a hostile server', () => {
  it('refuses 4294967296 pages after one request', async () => {
    paging = { kind: 'huge-total-pages', totalPages: 4294967296 };
    const error = await listGroupTargets(session, 'list-1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ListRefusedError);
    expect((error as Error).message).toContain('the server says this list has 4,294,967,296 pages');
    expect(pageRequests('list-1')).toHaveLength(1);
  });

  it('refuses totalPages that do not match totalElements', async () => {
    paging = { kind: 'inconsistent', totalPages: 101, totalElements: 5 };
    await expect(listGroupTargets(session, 'list-2')).rejects.toThrow(
      `it says 5 items in 101 pages of ${GROUP_PAGE_SIZE}, which make 1 pages`,
    );
    expect(pageRequests('list-2')).toHaveLength(1);
  });

  it('stops hasNext: true forever with 500 gateways of 2 KB names a page at the byte cap', async () => {
    paging = { kind: 'forever', nameLength: 2048 };
    await expect(listGroupTargets(session, 'list-3')).rejects.toThrow(
      `the list goes on past ${MAX_LIST_BYTES / 1024 / 1024} MB, the most Field Kit reads of one list`,
    );
    expect(pageRequests('list-3').length).toBeLessThanOrEqual(
      Math.ceil(MAX_LIST_BYTES / (GROUP_PAGE_SIZE * 2048)) + 1,
    );
  });

  it('cancels the page under way and asks for no other once the signal fires', async () => {
    paging = { kind: 'forever' };
    const controller = new AbortController();
    const cancelled = new Promise<void>((resolve) => {
      onPage = (page, response) => {
        if (page < 3 || !response.req.url?.includes('/list-4/')) return true;
        response.once('close', () => resolve());
        controller.abort();
        return false;
      };
    });
    const error = await listGroupTargets(session, 'list-4', { signal: controller.signal }).catch(
      (caught: unknown) => caught,
    );
    await cancelled;
    expect(error).toBeInstanceOf(RequestAbortedError);
    expect(pageRequests('list-4').map((request) => pageQueryOf(request.url).page)).toEqual([0, 1, 2, 3]);
  });
});

describe('a site pack from a hostile server', () => {
  const prepare = (customerId: string, signal?: AbortSignal) =>
    prepareSitePack({
      reader: session,
      profileId: 'profile-1',
      scope: { kind: 'customer', id: customerId },
      selection: { kind: 'ids', ids: [] },
      isRootPasswordStored: async () => false,
      isFatal: () => false,
      ...(signal ? { signal } : {}),
    });

  it('refuses 4294967296 pages after one request, allocating nothing from the number', async () => {
    paging = { kind: 'huge-total-pages', totalPages: 4294967296 };
    await expect(prepare('list-5')).rejects.toThrow(
      'Unexpected answer from listCustomerGateways: totalPages: the server says this list has 4,294,967,296 pages',
    );
    expect(pageRequests('list-5')).toHaveLength(1);
  });

  it('refuses 101 pages for 5 gateways after one request', async () => {
    paging = { kind: 'inconsistent', totalPages: 101, totalElements: 5 };
    await expect(prepare('list-6')).rejects.toThrow(
      `it says 5 items in 101 pages of ${PACK_LIST_PAGE_SIZE.toLocaleString('en-US')}, which make 1 pages`,
    );
    expect(pageRequests('list-6')).toHaveLength(1);
  });

  it('reads only the pages the first page announced when the server says hasNext forever', async () => {
    paging = { kind: 'forever' };
    const pack = await prepare('list-7');
    expect(pack.gateways).toHaveLength(2 * PACK_LIST_PAGE_SIZE);
    expect(pageRequests('list-7')).toHaveLength(2);
  });

  it('refuses a list of 2 KB names at the byte cap', async () => {
    paging = { kind: 'large', totalElements: 100_000, nameLength: 2048 };
    await expect(prepare('list-8')).rejects.toThrow(
      `the list goes on past ${MAX_LIST_BYTES / 1024 / 1024} MB, the most Field Kit reads of one list`,
    );
    // The lanes under way when the cap is reached may finish their pages: at most one more each.
    expect(pageRequests('list-8').length).toBeLessThanOrEqual(
      Math.ceil(MAX_LIST_BYTES / (PACK_LIST_PAGE_SIZE * 2048)) + PACK_CONCURRENCY,
    );
  });

  it('cancels the pages under way and asks for no other once cancelled', async () => {
    paging = { kind: 'large', totalElements: 20 * PACK_LIST_PAGE_SIZE };
    const controller = new AbortController();
    const closed: Array<Promise<void>> = [];
    onPage = (page, response) => {
      if (page === 0 || !response.req.url?.includes('/list-9/')) return true;
      closed.push(new Promise((resolve) => response.once('close', () => resolve())));
      controller.abort();
      return false;
    };
    await expect(prepare('list-9', controller.signal)).rejects.toBeInstanceOf(PackCancelledError);
    await Promise.all(closed);
    const pages = pageRequests('list-9').map((request) => pageQueryOf(request.url).page);
    expect(Math.max(...pages)).toBeLessThanOrEqual(PACK_CONCURRENCY);
  });
});
