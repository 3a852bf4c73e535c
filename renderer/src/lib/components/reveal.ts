/**
 * Svelte action: while `isActive`, brings the element into view and moves focus to it (it needs `tabindex="-1"`),
 * for a wait line or a result that appears away from the button that started it: out of view, nobody sees it,
 * and a keyboard user's focus would stay on a button that no longer matters.
 */
export function reveal(node: HTMLElement, isActive = true) {
  const show = (active: boolean) => {
    if (!active) return;
    // After this frame's other updates: the dialog that started it hands focus back to its (now disabled) button.
    requestAnimationFrame(() => {
      if (!node.isConnected) return;
      node.scrollIntoView({ block: 'nearest' });
      node.focus({ preventScroll: true });
    });
  };
  show(isActive);
  return { update: show };
}
