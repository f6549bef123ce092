// The load generator of `npm run bench`'s page figures, in a process of its own (forked by
// scripts/bench-pages.ts), so that the CPU the server's process spends is the server's alone.
// Plain JavaScript: it needs no loader. Keeps `connections` requests in flight over keep-alive
// connections (fetch's default agent reuses them), first for a warm-up, then for the measured
// period; tells the parent when the measured period starts and, at the end, how many requests it
// completed.
const { url, headers, connections, warmupMs, durationMs } = JSON.parse(process.argv[2]);

async function load(until) {
  let completed = 0;
  const failed = new Map();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        if (response.ok) completed += 1;
        else failed.set(response.status, (failed.get(response.status) ?? 0) + 1);
      }
    }),
  );
  return { completed, failed: Object.fromEntries(failed) };
}

await load(performance.now() + warmupMs);
process.send({ kind: "measuring" });
const started = performance.now();
const { completed, failed } = await load(started + durationMs);
process.send({ kind: "done", completed, failed, seconds: (performance.now() - started) / 1000 }, () => process.exit(0));
