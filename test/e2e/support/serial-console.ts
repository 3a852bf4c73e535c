import type { Page } from 'playwright-core';

/** Opens a serial console tab on a typed path, named after `gateway`, and waits for the dialog to close. */
export async function openSerialConsole(page: Page, path: string, gateway: string): Promise<void> {
  await page.getByRole('button', { name: 'Serial console' }).click();
  const dialog = page.getByRole('dialog', { name: 'Serial console' });
  await dialog.getByRole('combobox', { name: 'Port' }).selectOption({ label: 'Type a path…' });
  await dialog.getByLabel('Path', { exact: true }).fill(path);
  await dialog.getByLabel('Gateway (names the tab and the log file)').fill(gateway);
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await dialog.waitFor({ state: 'detached' });
}
