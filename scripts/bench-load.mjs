// The load generator of `npm run bench`'s page figures, in a process of its own (forked by
// scripts/bench-pages.ts), so that the CPU the server's process spends is the server's alone.
// Plain JavaScript: it needs no loader. Keeps `connections` requests in flight over keep-alive
// connections (fetch's default agent reuses them), first for a warm-up, then for the measured
// period; tells the parent when the measured period starts and, at the end, how many requests it
// completed. Given `randomQueries`, it sends that many requests instead, each with a query string
// of its own (an attacker's, or a crawler's, variations of one address), and then says how many.
// Given `numbered`, each request's address ends in a number of its own, after a tag of this
// process's (the URL ends where the number goes): pages that must be written afresh every time.
import { randomBytes } from "node:crypto";

const { url, headers, connections, warmupMs, durationMs, randomQueries, numbered } = JSON.parse(process.argv[2]);

/** A query string no route declares, different every time. */
const randomAddress = () => `${url}?${randomBytes(6).toString("hex")}=${randomBytes(24).toString("base64url")}`;
const tag = randomBytes(4).toString("hex");
let numberedSent = 0;
/** The address this request asks for. */
const address = (count) =>
  count !== Number.POSITIVE_INFINITY ? randomAddress() : numbered ? `${url}${tag}-${(numberedSent += 1)}` : url;

async function load(until, count = Number.POSITIVE_INFINITY) {
  let completed = 0;
  let sent = 0;
  const failed = new Map();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until && sent < count) {
        sent += 1;
        const response = await fetch(address(count), { headers });
        await response.arrayBuffer();
        if (response.ok) completed += 1;
        else failed.set(response.status, (failed.get(response.status) ?? 0) + 1);
      }
    }),
  );
  return { completed, failed: Object.fromEntries(failed) };
}

if (randomQueries !== undefined) {
  const started = performance.now();
  const { completed, failed } = await load(Number.POSITIVE_INFINITY, randomQueries);
  const seconds = (performance.now() - started) / 1000;
  process.send({ kind: "done", completed, failed, seconds }, () => process.exit(0));
} else {
  await load(performance.now() + warmupMs);
  process.send({ kind: "measuring" });
  const started = performance.now();
  const { completed, failed } = await load(started + durationMs);
  process.send({ kind: "done", completed, failed, seconds: (performance.now() - started) / 1000 }, () =>
    process.exit(0),
  );
}
