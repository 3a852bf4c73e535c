import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportSiteReport, reportBaseName } from '../../../../electron/services/reports';
import { makeSiteVisit } from '../../../helpers/factories';

let folder: string;

beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'fieldkit-export-'));
});

afterEach(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('reportBaseName', () => {
  it('names the report after the site and the visit start, readable and with only safe characters', () => {
    expect(reportBaseName(makeSiteVisit([], { site: 'Harbour warehouse: roof/North' }), 'UTC')).toBe(
      'site-report_Harbour-warehouse-roof-North_2026-01-15_1200',
    );
  });

  it('names the report after the first gateway when no site is given', () => {
    expect(reportBaseName(makeSiteVisit([]), 'UTC')).toBe('site-report_Kona-Macro-7_2026-01-15_1200');
  });

  it('cuts a long site at a word and keeps the whole date', () => {
    const site = 'Pumping station number four of the northern water works, roof and basement';
    const name = reportBaseName(makeSiteVisit([], { site }), 'UTC');
    expect(name).toBe('site-report_Pumping-station-number-four-of-the-northern_2026-01-15_1200');
  });

  it('writes the date in the time zone of the report', () => {
    expect(reportBaseName(makeSiteVisit([], { site: 'Roof' }), 'Asia/Tokyo')).toBe(
      'site-report_Roof_2026-01-15_2100',
    );
  });

  it('keeps letters of any script', () => {
    expect(reportBaseName(makeSiteVisit([], { site: 'Zürich Dach' }), 'UTC')).toBe(
      'site-report_Zürich-Dach_2026-01-15_1200',
    );
  });
});

describe('exportSiteReport', () => {
  it('never overwrites an earlier export of the same visit: the next one is suffixed -2, then -3', async () => {
    const visit = makeSiteVisit([], { site: 'Roof' });
    const first = await exportSiteReport(visit, folder, { timeZone: 'UTC' });
    const second = await exportSiteReport(visit, folder, { timeZone: 'UTC' });
    const third = await exportSiteReport(visit, folder, { timeZone: 'UTC' });
    expect([first.htmlPath, second.htmlPath, third.htmlPath]).toEqual([
      join(folder, 'site-report_Roof_2026-01-15_1200.html'),
      join(folder, 'site-report_Roof_2026-01-15_1200-2.html'),
      join(folder, 'site-report_Roof_2026-01-15_1200-3.html'),
    ]);
    expect((await readdir(folder)).sort()).toEqual([
      'site-report_Roof_2026-01-15_1200-2.html',
      'site-report_Roof_2026-01-15_1200-3.html',
      'site-report_Roof_2026-01-15_1200.html',
    ]);
    expect(await readFile(first.htmlPath, 'utf8')).toContain('<!doctype html>');
  });

  it('gives exports started at once different names', async () => {
    const visit = makeSiteVisit([], { site: 'Roof' });
    const written = await Promise.all(
      Array.from({ length: 5 }, () => exportSiteReport(visit, folder, { timeZone: 'UTC' })),
    );
    expect(new Set(written.map((item) => item.htmlPath)).size).toBe(5);
  });
});
