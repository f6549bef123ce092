// The buyers of `npm run bench`'s on-sale spike (scripts/bench-spike.ts), in a process of their
// own: N buyers without script arrive at random within a few seconds for one performance's
// tickets page. Those the waiting room holds back wait on its page, asking again when its meta
// refresh says, as a browser would; once let in, each buys through every step (best available →
// … → Pay → confirmation) and is done. Reports each buyer's arrival, first place, wait and outcome,
// and each step's times.
import { setTimeout as sleep } from "node:timers/promises";
import { performance as perf } from "node:perf_hooks";
import {
  checkoutTo,
  countStop,
  noScriptBrowser,
  pay,
  stepRecorder,
  STEPS,
  type BuyersBrief,
  type NoScriptBrowser,
  type StepName,
} from "./bench-buyers";

export interface SpikeBrief extends BuyersBrief {
  /** Buyers arrive at random within this many milliseconds. */
  arrivalMs: number;
  /** Buyers still waiting after this long stop (the run's end). */
  runMs: number;
  /** How long a buyer let in reads each checkout page before sending its form. */
  readingMs: number;
}

export interface SpikeBuyer {
  arrivedMs: number;
  /** Their place when first told one; null when let in at once. */
  firstPlace: number | null;
  /** From arrival to the tickets page; null when never let in. */
  waitedMs: number | null;
  outcome: "ordered" | "noSeats" | "stopped" | "waiting";
}

export interface SpikeDone {
  kind: "done";
  buyers: SpikeBuyer[];
  times: Record<StepName | "waiting page", number[]>;
  stopped: Record<string, number>;
  /** Pages a buyer could not reach (the connection refused or timed out) and asked for again. */
  unreachable: number;
  /** The waiting page's times apart: each buyer's first visit (arrival, redirects, join), and the refreshes. */
  arrivals: number[];
  refreshes: number[];
}

/** The waiting page's own refresh: its seconds, and where it asks (the room's address). */
const REFRESH = /<meta http-equiv="refresh" content="(\d+)(?:; url=([^"]+))?"/;
const refreshUrl = (html: string, current: string) => {
  const url = REFRESH.exec(html)?.[2];
  return url ? url.replaceAll("&amp;", "&") : current;
};
const RELOAD_MS = 5_000;
const PLACE = /Your place in the queue: (\d+) of/;

/** A GET and the redirects after it, as a browser follows them; the last page. */
async function visit(origin: string, browser: NoScriptBrowser, path: string) {
  let page = await browser.get(path);
  for (let hops = 0; hops < 5; hops += 1) {
    const location = page.response.headers.get("Location");
    if (!location) break;
    const next = new URL(location, origin);
    page = await browser.get(next.pathname + next.search);
  }
  return page;
}

/** Asked of this process after the rush, while the serving process counts its own CPU. */
export type OneAtATime = { kind: "arrivals" | "refreshes"; count: number } | { kind: "exit" };

/**
 * After the rush, one request at a time, so that the serving process can tell what each costs it:
 * `count` new buyers arrive for the tickets page (redirects and join included), then each of them
 * asks for the waiting page again. Answers each request with "ok".
 */
function oneAtATime(brief: SpikeBrief) {
  const waiting: { browser: NoScriptBrowser; path: string }[] = [];
  process.on("message", (asked: OneAtATime) => {
    if (asked.kind === "exit") process.exit(0);
    const work = async () => {
      if (asked.kind === "arrivals")
        for (let index = 0; index < asked.count; index += 1) {
          const browser = noScriptBrowser(brief.origin, brief.secret);
          const page = await visit(brief.origin, browser, brief.tickets);
          const url = new URL(page.response.url);
          waiting.push({ browser, path: refreshUrl(page.text, url.pathname + url.search) });
        }
      else for (const { browser, path } of waiting.slice(0, asked.count)) await visit(brief.origin, browser, path);
    };
    work().then(
      () => process.send!("ok"),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}

async function run(brief: SpikeBrief): Promise<SpikeDone> {
  const times = Object.fromEntries(
    [...STEPS, "waiting page"].map((name) => [name, [] as number[]]),
  ) as SpikeDone["times"];
  const stopped: Record<string, number> = {};
  const started = perf.now();
  const deadline = started + brief.runMs;

  /** A step's time kept under its name, and in `alsoIn` (its own, not another buyer's that ended meanwhile). */
  async function timed(
    name: StepName | "waiting page",
    work: () => Promise<{ response: Response; text: string }>,
    alsoIn?: number[],
  ) {
    const at = perf.now();
    const result = await work();
    const took = perf.now() - at;
    times[name].push(took);
    alsoIn?.push(took);
    return result;
  }

  const recorded = stepRecorder(times, stopped);
  // A buyer reads each page before sending its form: without a pause, the few let in would ask as
  // fast as the server answers and take all of its time, and every arrival would wait behind them.
  const step: typeof recorded = async (name, work, expect) => {
    await sleep(brief.readingMs);
    return recorded(name, work, expect);
  };
  const arrivals: number[] = [];
  const refreshes: number[] = [];
  let unreachable = 0;

  /** Counts a page the buyer's browser could not reach (fetch's TypeError); anything else goes on. */
  function countUnreachable(error: unknown) {
    if (!(error instanceof TypeError)) throw error;
    unreachable += 1;
  }

  /**
   * A page the buyer's browser could not reach (fetch's TypeError: the connection refused or
   * timed out, as when a rush fills the server's queue of connections). A buyer asks again after
   * a moment, as one would press reload; null once the run is over.
   */
  async function reached<T>(work: () => Promise<T>): Promise<T | null> {
    for (;;) {
      try {
        return await work();
      } catch (error) {
        countUnreachable(error);
        if (perf.now() + RELOAD_MS > deadline) return null;
        await sleep(RELOAD_MS);
      }
    }
  }

  async function buyer(): Promise<SpikeBuyer> {
    const arrivedMs = Math.random() * brief.arrivalMs;
    await sleep(arrivedMs);
    const browser = noScriptBrowser(brief.origin, brief.secret);
    const arrival = perf.now();
    let page = await reached(() => timed("waiting page", () => visit(brief.origin, browser, brief.tickets), arrivals));
    let firstPlace: number | null = null;
    // Waiting: ask again when the page's own refresh says, until let in or the run ends.
    while (
      page !== null &&
      (new URL(page.response.url).pathname === "/waiting-room" || page.text.includes("Your place in the queue"))
    ) {
      const place = PLACE.exec(page.text);
      if (firstPlace === null && place) firstPlace = Number(place[1]);
      const seconds = Number(REFRESH.exec(page.text)?.[1] ?? 10);
      if (perf.now() + seconds * 1000 > deadline) return { arrivedMs, firstPlace, waitedMs: null, outcome: "waiting" };
      await sleep(seconds * 1000);
      const url = new URL(page.response.url);
      const next = refreshUrl(page.text, url.pathname + url.search);
      page = await reached(() => timed("waiting page", () => visit(brief.origin, browser, next), refreshes));
    }
    // Never reached before the run's end: still trying, as a buyer would be.
    if (page === null) return { arrivedMs, firstPlace, waitedMs: null, outcome: "waiting" };
    const waitedMs = perf.now() - arrival;
    try {
      return { arrivedMs, firstPlace, waitedMs, outcome: await shop(browser) };
    } catch (error) {
      // Once let in, a page that cannot be reached ends the journey there, counted.
      countUnreachable(error);
      countStop(stopped, "a page that could not be reached");
      return { arrivedMs, firstPlace, waitedMs, outcome: "stopped" };
    }
  }

  /** From best available to the confirmation. */
  async function shop(browser: NoScriptBrowser): Promise<SpikeBuyer["outcome"]> {
    const quantity = 1 + Math.floor(Math.random() * 4);
    const best = await timed("best available", () =>
      browser.post(brief.tickets, { intent: "best", quantity: String(quantity) }),
    );
    if (!(best.response.headers.get("Location") ?? "").startsWith("/checkout/reservations")) {
      const noSeats = best.response.status === 409 && best.text.includes(brief.noOptions);
      if (!noSeats) countStop(stopped, `best available (${best.response.status})`);
      return noSeats ? "noSeats" : "stopped";
    }
    const ordered =
      (await checkoutTo(browser, brief, step)) &&
      (await step("pay", () => pay(browser), "/checkout/confirmation")) &&
      (await step("confirmation", () => browser.get("/checkout/confirmation"), ""));
    return ordered ? "ordered" : "stopped";
  }

  const buyers = await Promise.all(Array.from({ length: brief.buyers }, () => buyer()));
  return { kind: "done", buyers, times, stopped, unreachable, arrivals, refreshes };
}

if (process.send) {
  process.once("message", (brief: SpikeBrief) => {
    oneAtATime(brief);
    run(brief).then(
      (done) => process.send!(done),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
