// The load generator of `npm run bench`'s throughput figures, in a worker thread so that the
// server under test has the main thread to itself. Plain JavaScript: a worker does not get the tsx
// loader. Keeps `connections` requests in flight over keep-alive connections (fetch's default
// agent reuses them), first for a warm-up, then for the measured period, and reports the count.
import { parentPort, workerData } from "node:worker_threads";

const { url, headers, connections, warmupMs, durationMs } = workerData;

async function load(until) {
  let completed = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const response = await fetch(url, { headers });
        await response.arrayBuffer();
        if (response.ok) completed += 1;
        else failed += 1;
      }
    }),
  );
  return { completed, failed };
}

await load(performance.now() + warmupMs);
const started = performance.now();
const { completed, failed } = await load(started + durationMs);
parentPort.postMessage({ completed, failed, seconds: (performance.now() - started) / 1000 });
