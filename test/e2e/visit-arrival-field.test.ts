import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalHost, type LocalHostRig } from './support/local-host';

// The visit's arrival and departure are typed as text in the app's date form (YYYY-MM-DD HH:MM), not in the
// browser's own date input: unreadable text is said under the field, a visit started at a typed time shows that
// time in the report's "Visit started" field, and the visit ends at the departure typed (never before arrival).

let rig: LocalHostRig;

beforeAll(async () => {
  rig = await startLocalHost('visit-arrival');
}, 120_000);

afterAll(async () => {
  await rig?.close();
});

/** A time as the date field writes it, in this machine's zone (the browser's and the app's here). */
function fieldText(at: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

describe('the arrival and departure of a visit', () => {
  it('are typed year first, refused when unreadable or out of order, and kept', async () => {
    const { page } = rig.browser;
    await page.goto(rig.host.url);
    await page.getByRole('button', { name: 'Work without signing in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.evaluate(() => (location.hash = '#/commissioning/report'));
    await page.getByRole('heading', { name: 'Site report' }).waitFor();

    const arrival = page.getByLabel('Arrival', { exact: true });
    expect(await arrival.getAttribute('type')).not.toBe('datetime-local');
    await arrival.fill('26/11/2026 9h');
    await arrival.blur();
    await page.getByText('Not a date and time: write it year first, as 2026-11-26 14:05.').waitFor();

    const typed = fieldText(new Date(Date.now() - 2 * 3_600_000));
    await arrival.fill(typed);
    await page
      .getByText('Not a date and time: write it year first, as 2026-11-26 14:05.')
      .waitFor({ state: 'detached' });
    await page.getByLabel('Visit site').fill('Harbour warehouse roof');
    await page.getByRole('button', { name: 'Start visit' }).click();
    await page.getByRole('status', { name: 'Open visit' }).waitFor();

    // The report's start field now holds the arrival typed, written the same way.
    await expect.poll(() => page.getByLabel('Visit started').inputValue()).toBe(typed);

    // Ending it asks for the departure.
    await page.getByRole('button', { name: 'End the visit', exact: true }).click();
    const ending = page.getByRole('group', { name: 'End the visit' });
    const departure = ending.getByLabel('Departure', { exact: true });
    // It starts as now, to the minute (read in this machine's zone, as the field writes it).
    const offered = new Date((await departure.inputValue()).replace(' ', 'T')).getTime();
    expect(Math.abs(Date.now() - offered)).toBeLessThan(120_000);

    await departure.fill(fieldText(new Date(Date.now() - 3 * 3_600_000)));
    await page.getByRole('button', { name: 'End the visit at this time' }).click();
    await ending.getByText(/^The departure cannot be before the arrival \(.+\)\.$/).waitFor();
    await page.getByRole('status', { name: 'Open visit' }).waitFor();

    await departure.fill(fieldText(new Date(Date.now() - 3_600_000)));
    const readsAs = (await ending.getByText(/^Reads as /).textContent())!.replace('Reads as ', '');
    await page.getByRole('button', { name: 'End the visit at this time' }).click();
    await page.getByRole('status', { name: 'Open visit' }).waitFor({ state: 'detached' });
    await page.getByText('Visits on this computer (1)').click();
    const listed = page.getByRole('list', { name: 'Visits on this computer' });
    expect(await listed.textContent()).toContain(`left ${readsAs}`);
  });
});
