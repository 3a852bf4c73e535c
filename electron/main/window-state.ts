import { z } from 'zod';
import { writeFileAtomic } from '../services/files/atomic-file';
import { readPrivateFile } from '../services/files/private-files';

/** The window's size and position as remembered between runs. */
export const WindowBoundsSchema = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(400).max(20_000),
  height: z.number().int().min(300).max(20_000),
  isMaximized: z.boolean().default(false),
});
/** The window's size and position. */
export type WindowBounds = z.infer<typeof WindowBoundsSchema>;

/** A display's usable area. */
export interface WorkArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Reads the remembered bounds; null when absent, invalid or not a regular file (a FIFO must not hold up start). A position that would put the title bar off every
 * display (a monitor unplugged since) is dropped so the window opens centred.
 */
export async function loadWindowBounds(
  path: string,
  workAreas: readonly WorkArea[],
): Promise<WindowBounds | null> {
  let bounds: WindowBounds;
  try {
    bounds = WindowBoundsSchema.parse(JSON.parse(await readPrivateFile(path)));
  } catch {
    return null;
  }
  if (bounds.x === undefined || bounds.y === undefined) return bounds;
  const { x, y } = bounds;
  const titleBarVisible = workAreas.some(
    (area) =>
      x + 100 > area.x && x < area.x + area.width - 100 && y >= area.y && y < area.y + area.height - 50,
  );
  if (titleBarVisible) return bounds;
  return { width: bounds.width, height: bounds.height, isMaximized: bounds.isMaximized };
}

/** Saves the bounds atomically (a crash mid-write leaves the previous file). */
export async function saveWindowBounds(path: string, bounds: WindowBounds): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(WindowBoundsSchema.parse(bounds))}\n`);
}
