import { fixedClock } from "~/clock";
import { startServer } from "./app";
import { htmlDriver, type DriverOptions } from "./html-driver";

export { goodPerformance, pathOf } from "./demo-pages";

// HTML-level journeys over the demo catalogue (the venues and shows a buyer meets on a fresh
// deployment), on a server whose clock stands still until a test moves it: the calendar opens on
// the same month every run, and a hold expires when the test says so, not after a real wait.

/** A Monday: the demo's first performances are the day after. */
export const DEMO_NOW = "2026-11-23T12:00:00Z";

export type DemoServer = Awaited<ReturnType<typeof startDemoServer>>;

/** The production build over a fresh SQLite file loaded with the demo catalogue. Needs `npm run build`. */
export async function startDemoServer(env: Record<string, string> = {}) {
  const clock = fixedClock(DEMO_NOW);
  const server = await startServer({ DEMO_CATALOGUE: "auto", ...env }, { clock });
  return { ...server, clock };
}

/** A browser without script on the demo server, reading its clock for cookie expiry. */
export function demoBuyer(server: DemoServer, language: "en-GB" | "en-US", options: DriverOptions = {}) {
  return htmlDriver(server.url(""), { language, now: () => server.clock.now().getTime(), ...options });
}
