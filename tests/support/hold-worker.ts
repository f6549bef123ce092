// One of several processes racing for the same seat in one SQLite file (tests/store/concurrency.test.ts).
import { systemClock } from "~/clock";
import { openSqlite } from "~/db/connection.server";
import { createInventory } from "~/ticketing/inventory.server";

const [file, performanceId, seatId, attempts, worker] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store = openSqlite(file);
const inventory = createInventory(store, systemClock);
const results = await Promise.all(
  Array.from({ length: Number(attempts) }, (_, attempt) =>
    inventory.holdSeats({ basketId: `worker-${worker}-${attempt}`, performanceId, seatIds: [Number(seatId)] }),
  ),
);
await store.close();
process.stdout.write(JSON.stringify(results.map((result) => (result.ok ? "held" : result.reason))));
