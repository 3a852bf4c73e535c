// Pages of gateways as a hostile server answers them (issue 28): a page count from nowhere, totals that do not add
// up, or a list that never ends while keeping its own numbers consistent. Used by the paging tests, the hostile
// server tests and the hardening benchmark.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Page } from '../../electron/shared/api';
import type { Gateway } from '../../electron/shared/api/gateway';
import { answerLogin, sendJson } from './fake-oam-server';
import { makeGateway } from './factories';

/** How a hostile pager answers page `page` of `limit`. */
export type HostilePaging =
  /** One gateway, but a page count a server should never give (4294967296 made the site pack allocate it). */
  | { kind: 'huge-total-pages'; totalPages: number }
  /** totalPages that does not match totalElements over the page size. */
  | { kind: 'inconsistent'; totalPages: number; totalElements: number }
  /** Always `hasNext: true`, each page full, the totals growing one page ahead: consistent, and endless. */
  | { kind: 'forever'; nameLength?: number }
  /** Totals that add up and full pages, of a list as long as `totalElements`. */
  | { kind: 'large'; totalElements: number; nameLength?: number };

/** `count` gateways from index `first`, whose names are `nameLength` characters (at least the index). */
export function gatewaysFrom(first: number, count: number, nameLength = 0): Gateway[] {
  return Array.from({ length: count }, (_, offset) => {
    const index = first + offset;
    const label = `Gateway ${index} `;
    return makeGateway(index, { name: label + 'x'.repeat(Math.max(0, nameLength - label.length)) });
  });
}

/** The page a hostile server answers for `page` of `limit`. */
export function hostilePage(paging: HostilePaging, page: number, limit: number): Page<Gateway> {
  switch (paging.kind) {
    case 'huge-total-pages':
      return {
        data: gatewaysFrom(page, 1),
        totalPages: paging.totalPages,
        totalElements: 1,
        hasNext: true,
      };
    case 'inconsistent':
      return {
        data: gatewaysFrom(page * limit, Math.min(limit, paging.totalElements)),
        totalPages: paging.totalPages,
        totalElements: paging.totalElements,
        hasNext: page + 1 < paging.totalPages,
      };
    case 'forever':
      return {
        data: gatewaysFrom(page * limit, limit, paging.nameLength),
        totalPages: page + 2,
        totalElements: (page + 2) * limit,
        hasNext: true,
      };
    case 'large': {
      const totalPages = Math.ceil(paging.totalElements / limit);
      const count = Math.max(0, Math.min(limit, paging.totalElements - page * limit));
      return {
        data: gatewaysFrom(page * limit, count, paging.nameLength),
        totalPages,
        totalElements: paging.totalElements,
        hasNext: page + 1 < totalPages,
      };
    }
  }
}

/** The `page` and `limit` of a list request's query (0 and 100 when absent, as the server defaults them). */
export function pageQueryOf(url: string): { page: number; limit: number } {
  const query = new URL(url, 'http://127.0.0.1').searchParams;
  return { page: Number(query.get('page') ?? 0), limit: Number(query.get('limit') ?? 100) };
}

/**
 * A fake-server handler: login and refresh as answerLogin, every gateway list with `paging()`'s hostile page,
 * anything else as answerLogin does (404). `onPage` sees each page request before it is answered; returning
 * false holds the answer (the test ends the request).
 */
export function answerHostilePaging(
  paging: () => HostilePaging,
  onPage: (page: number, response: ServerResponse) => boolean = () => true,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    const url = request.url ?? '';
    if (!/\/gateways\?/.test(url)) return answerLogin(request, response);
    const { page, limit } = pageQueryOf(url);
    if (!onPage(page, response)) return;
    sendJson(response, hostilePage(paging(), page, limit));
  };
}
