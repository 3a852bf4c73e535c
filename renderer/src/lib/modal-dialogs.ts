/**
 * The one rule for every modal dialog of the app (Dialog.svelte): while one is open, the page behind it is inert
 * and the app's view shortcuts (Alt+1 … Alt+9) do nothing; and no modal dialog stays open where it cannot be
 * seen (in the Terminals view kept hidden while another view shows), since it would block every click.
 */

/** True while a modal dialog is open over the page. */
export function isModalDialogOpen(): boolean {
  return document.querySelector('dialog:modal') !== null;
}

/**
 * Closes each modal dialog that does not show (its view was hidden): its `close` event tells its owner, as
 * Escape would, and the owner's cancel runs.
 */
export function closeHiddenModalDialogs(): void {
  for (const dialog of document.querySelectorAll<HTMLDialogElement>('dialog:modal')) {
    if (!dialog.checkVisibility()) dialog.close();
  }
}
