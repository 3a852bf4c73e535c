import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FlowController } from '../../../../electron/services/terminal-core/flow-controller';

function createController(highWatermark = 100, lowWatermark = 10) {
  const calls: string[] = [];
  const controller = new FlowController({
    pause: () => calls.push('pause'),
    resume: () => calls.push('resume'),
    highWatermark,
    lowWatermark,
  });
  return { controller, calls };
}

describe('FlowController', () => {
  it('pauses at 1 MB and resumes at 500 kB by default', () => {
    const controller = new FlowController({ pause: () => {}, resume: () => {} });
    expect([controller.highWatermark, controller.lowWatermark]).toEqual([1_000_000, 500_000]);
  });

  it('pauses once when unacknowledged bytes reach the high watermark', () => {
    const { controller, calls } = createController();
    controller.sent(60);
    controller.sent(40);
    controller.sent(5);
    expect(calls).toEqual(['pause']);
    expect(controller.isPaused).toBe(true);
    expect(controller.unacknowledged).toBe(105);
  });

  it('stays paused until acknowledgements bring it down to the low watermark', () => {
    const { controller, calls } = createController();
    controller.sent(100);
    controller.acknowledged(80);
    expect(calls).toEqual(['pause']);
    controller.acknowledged(10);
    expect(calls).toEqual(['pause', 'resume']);
    expect(controller.isPaused).toBe(false);
  });

  it('never counts more acknowledged bytes than were sent', () => {
    const { controller } = createController();
    controller.sent(5);
    controller.acknowledged(50);
    expect(controller.unacknowledged).toBe(0);
    expect(controller.available).toBe(100);
  });

  it('rejects watermarks that cannot work with a clear message', () => {
    expect(
      () => new FlowController({ pause() {}, resume() {}, highWatermark: 10, lowWatermark: 10 }),
    ).toThrow(/lowWatermark must be an integer from 0 to below highWatermark/);
  });

  it('rejects negative or fractional byte counts', () => {
    const { controller } = createController();
    expect(() => controller.sent(-1)).toThrow(/non-negative integer/);
    expect(() => controller.acknowledged(1.5)).toThrow(/non-negative integer/);
  });

  it('resumes a paused producer on reset', () => {
    const { controller, calls } = createController();
    controller.sent(200);
    controller.reset();
    expect(calls).toEqual(['pause', 'resume']);
    expect(controller.unacknowledged).toBe(0);
  });

  it('keeps a flood at or under the high watermark and delivers every byte', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 150 }), { minLength: 1, maxLength: 20 }),
        (chunks, acknowledgements) => {
          const { controller, calls } = createController();
          const queue = [...chunks];
          let delivered = 0;
          let renderedButUnacknowledged = 0;
          let acknowledgementIndex = 0;
          for (
            let step = 0;
            step < 10_000 && (queue.length > 0 || renderedButUnacknowledged > 0);
            step += 1
          ) {
            // The producer sends only while running and only what fits under the high watermark.
            if (!controller.isPaused && queue.length > 0 && controller.available > 0) {
              const size = Math.min(queue[0]!, controller.available);
              queue[0]! -= size;
              if (queue[0] === 0) queue.shift();
              controller.sent(size);
              delivered += size;
              renderedButUnacknowledged += size;
            } else {
              const size = Math.min(
                renderedButUnacknowledged,
                acknowledgements[acknowledgementIndex++ % acknowledgements.length]!,
              );
              controller.acknowledged(size);
              renderedButUnacknowledged -= size;
            }
            expect(controller.unacknowledged).toBeLessThanOrEqual(controller.highWatermark);
            if (controller.isPaused)
              expect(controller.unacknowledged).toBeGreaterThan(controller.lowWatermark);
          }
          expect(delivered).toBe(chunks.reduce((sum, size) => sum + size, 0));
          expect(calls.filter((call) => call === 'pause').length).toBe(
            calls.filter((call) => call === 'resume').length,
          );
        },
      ),
    );
  });
});
