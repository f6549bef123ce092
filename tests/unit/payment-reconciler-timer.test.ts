import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger } from "~/logging/logger.server";
import { startReconciler } from "~/use-cases/pay.server";

// Each server's reconciler timer: a pass every interval, never two at once, and stop() waits for
// the pass under way so the store is not closed beneath it. Fake timers: nothing really waits.

describe("the reconciler's timer", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("runs a pass every interval, skips a tick while one is under way, and stop waits for it", async () => {
    const finishers: (() => void)[] = [];
    const reconcile = vi.fn(() => new Promise<number>((resolve) => finishers.push(() => resolve(0))));
    const reconciler = startReconciler({ reconcile }, 1000, createLogger("silent"));
    expect(reconcile).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1000);
    expect(reconcile).toHaveBeenCalledTimes(1);
    // The first pass is slow: the next ticks start nothing.
    await vi.advanceTimersByTimeAsync(3000);
    expect(reconcile).toHaveBeenCalledTimes(1);
    finishers.shift()!();
    await vi.advanceTimersByTimeAsync(1000);
    expect(reconcile).toHaveBeenCalledTimes(2);

    let stopped = false;
    const stopping = reconciler.stop().then(() => (stopped = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finishers.shift()!();
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(reconcile).toHaveBeenCalledTimes(2);
  });

  it("a failing pass is logged and the next one still runs", async () => {
    const reconcile = vi.fn().mockRejectedValueOnce(new Error("gateway down")).mockResolvedValue(0);
    const reconciler = startReconciler({ reconcile }, 500, createLogger("silent"));
    await vi.advanceTimersByTimeAsync(1000);
    expect(reconcile).toHaveBeenCalledTimes(2);
    await reconciler.stop();
  });
});
