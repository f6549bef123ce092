import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import {
  ARRIVAL_GRACE_MS,
  createWaitingRoom,
  LINE_MAX_AGE_MS,
  type Pass,
  type RoomRule,
} from "~/ticketing/waiting-room.server";
import { createTestStore, DIALECTS, type TestStore } from "../support/stores";

const IDLE_MS = 10 * 60_000;
let rooms = 0;
/** A room of its own for each test: the store is shared by the file. */
const room = (rule: Omit<RoomRule, "id">): RoomRule => ({ id: `test-${(rooms += 1)}`, ...rule });

const place = (pass: Pass) => (pass.admitted || "refused" in pass || pass.preQueue ? null : pass.place);

describe.each(DIALECTS)("the waiting room on %s", (dialect) => {
  let store: TestStore;
  const clock = fixedClock("2026-12-01T10:00:00.000Z");
  const waitingRoom = () => createWaitingRoom(store, clock, { idleMs: IDLE_MS });
  beforeAll(async () => {
    store = await createTestStore(dialect);
  });
  afterAll(() => store.drop());

  it("lets in as many as the room holds, and gives the rest places in order of arrival", async () => {
    clock.set("2026-12-01T10:00:00.000Z");
    const rule = room({ activeBuyers: 3, newBuyersPerMinute: null });
    const queue = waitingRoom();
    const passes = [];
    for (let buyer = 1; buyer <= 10; buyer += 1) passes.push(await queue.pass(rule, `visitor-${buyer}`));
    expect(passes.slice(0, 3).every((pass) => pass.admitted)).toBe(true);
    expect(passes.slice(3).map(place)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Asking again (a refresh) keeps each place, and changes nothing for those in.
    expect(place(await queue.pass(rule, "visitor-7"))).toBe(4);
    expect((await queue.pass(rule, "visitor-2")).admitted).toBe(true);
    expect(await queue.status(rule)).toMatchObject({ queueing: true, waiting: 7, admitted: 3 });
  });

  it("lets the next in when an admitted buyer leaves, goes idle, or never comes back", async () => {
    clock.set("2026-12-01T11:00:00.000Z");
    const rule = room({ activeBuyers: 2, newBuyersPerMinute: null });
    const queue = waitingRoom();
    for (const visitor of ["a", "b", "c", "d", "e"]) await queue.pass(rule, visitor);
    expect(place(await queue.pass(rule, "c"))).toBe(1);

    await queue.leave("a");
    expect((await queue.pass(rule, "c")).admitted).toBe(true);
    expect(place(await queue.pass(rule, "e"))).toBe(2);

    // b stays active by asking; c goes quiet past the idle time and gives up the place.
    clock.advance(IDLE_MS - 30_000);
    expect((await queue.pass(rule, "b")).admitted).toBe(true);
    clock.advance(60_000);
    expect((await queue.pass(rule, "d")).admitted).toBe(true);
    expect(place(await queue.pass(rule, "e"))).toBe(1);
    // c comes back: their place went to d, so they join again at the back.
    expect(place(await queue.pass(rule, "c"))).toBe(2);

    // d leaves: the next request (c's) lets e in, in turn, though e has closed the tab; after the
    // arrival grace the place goes on to c.
    await queue.leave("d");
    expect(place(await queue.pass(rule, "c"))).toBe(1);
    clock.advance(ARRIVAL_GRACE_MS + 1_000);
    expect((await queue.pass(rule, "b")).admitted).toBe(true);
    expect((await queue.pass(rule, "c")).admitted).toBe(true);
  });

  it("keeps a place while its buyer checks out (stillActive), and not once they have left", async () => {
    clock.set("2026-12-01T12:00:00.000Z");
    const rule = room({ activeBuyers: 1, newBuyersPerMinute: null });
    const queue = waitingRoom();
    expect((await queue.pass(rule, "paying")).admitted).toBe(true);
    expect(place(await queue.pass(rule, "next"))).toBe(1);
    for (let minute = 0; minute < 20; minute += 1) {
      clock.advance(60_000);
      await queue.stillActive("paying");
    }
    expect(place(await queue.pass(rule, "next"))).toBe(1);
    await queue.leave("paying");
    expect((await queue.pass(rule, "next")).admitted).toBe(true);
  });

  it("lets in no more per minute than the room's rate, and estimates the wait from it", async () => {
    clock.set("2026-12-01T13:00:00.000Z");
    const rule = room({ activeBuyers: 100, newBuyersPerMinute: 2 });
    const queue = waitingRoom();
    const passes = [];
    for (let buyer = 1; buyer <= 6; buyer += 1) passes.push(await queue.pass(rule, `rate-${buyer}`));
    expect(passes.map((pass) => pass.admitted)).toEqual([true, true, false, false, false, false]);
    // Two admitted in the last five minutes: 0.4 a minute, so the 4th in line waits ten minutes.
    const fourth = passes[5]!;
    expect(fourth).toMatchObject({ place: 4, estimatedWaitSeconds: 600 });
    // A minute on, the next two in line (3 and 4) are let in, whoever asks first.
    clock.advance(61_000);
    expect(place(await queue.pass(rule, "rate-5"))).toBe(1);
    expect((await queue.pass(rule, "rate-3")).admitted).toBe(true);
    expect((await queue.pass(rule, "rate-4")).admitted).toBe(true);
    expect(place(await queue.pass(rule, "rate-6"))).toBe(2);
  });

  it("draws the pre-queue's places at random at the on-sale time, ahead of everyone later", async () => {
    clock.set("2026-12-01T08:30:00.000Z");
    const rule = room({
      activeBuyers: 1,
      newBuyersPerMinute: null,
      onSale: { preQueueFrom: "2026-12-01T08:00:00.000Z", at: "2026-12-01T09:00:00.000Z" },
    });
    const queue = waitingRoom();
    const early = Array.from({ length: 12 }, (_, index) => `early-${index}`);
    for (const visitor of early) {
      const pass = await queue.pass(rule, visitor);
      expect(pass).toMatchObject({ admitted: false, preQueue: true, opensAt: rule.onSale!.at });
      // Refreshing in the pre-queue gains nothing and loses nothing.
      expect(await queue.pass(rule, visitor)).toMatchObject({ preQueue: true });
    }
    clock.set("2026-12-01T09:00:00.000Z");
    const late = await queue.pass(rule, "late");
    expect(place(late)).toBe(early.length);
    const places = new Map<string, number | null>();
    for (const visitor of early) {
      const pass = await queue.pass(rule, visitor);
      places.set(visitor, pass.admitted ? 0 : place(pass));
    }
    // One is in; the rest hold the places 1 to 11 between them, each once.
    expect([...places.values()].sort((a, b) => a! - b!)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    // Not in order of arrival (12! orders; the chance of the arrival order is negligible).
    expect([...places.values()]).not.toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it("never lets in more than the room holds when buyers arrive at once", async () => {
    clock.set("2026-12-01T14:00:00.000Z");
    const rule = room({ activeBuyers: 5, newBuyersPerMinute: null });
    // Separate instances, as separate processes would be.
    const passes = await Promise.all(
      Array.from({ length: 40 }, (_, index) => waitingRoom().pass(rule, `rush-${index}`)),
    );
    expect(passes.filter((pass) => pass.admitted)).toHaveLength(5);
    expect(
      passes
        .map(place)
        .filter((value) => value !== null)
        .sort((a, b) => a! - b!),
    ).toEqual(Array.from({ length: 35 }, (_, index) => index + 1));
  });

  it("costs the same few statements per join and one per refresh in a full room, however long its line", async () => {
    clock.set("2026-12-01T14:30:00.000Z");
    const rule = room({ activeBuyers: 1, newBuyersPerMinute: null });
    const queue = waitingRoom();
    const cost = async (visitor: string) => {
      const before = store.statements();
      const pass = await queue.pass(rule, visitor);
      return { statements: store.statements() - before, place: place(pass) };
    };
    await queue.pass(rule, "in");
    // The room read, then BEGIN, the room made or locked (and, on PostgreSQL, locked by row),
    // lapsed places swept, the room read again, the place written, the room's count moved,
    // COMMIT: nothing read back that the transaction already knows.
    const join = dialect === "postgres" ? 9 : 8;
    expect(await cost("first")).toEqual({ statements: join, place: 1 });
    for (let visitor = 0; visitor < 50; visitor += 1) await queue.pass(rule, `line-${visitor}`);
    expect(await cost("last")).toEqual({ statements: join, place: 52 });
    expect(await cost("first")).toEqual({ statements: 1, place: 1 });
    expect(await cost("last")).toEqual({ statements: 1, place: 52 });
  });

  it("limits new places per client address and per session over a window, and forgets them after it", async () => {
    clock.set("2026-12-01T15:00:00.000Z");
    const rule = room({ activeBuyers: 1, newBuyersPerMinute: null });
    const limits = { perAddress: 3, perSession: 2, windowMs: 10 * 60_000 };
    const queue = createWaitingRoom(store, clock, { idleMs: IDLE_MS, joinLimits: limits });
    // Three cookie-less clients from one address (a new visitor each) take places; the fourth not.
    const fromOne = [];
    for (const visitor of ["bot-1", "bot-2", "bot-3", "bot-4"])
      fromOne.push(await queue.pass(rule, visitor, "192.0.2.1"));
    expect(fromOne.slice(0, 3).map((pass) => "refused" in pass)).toEqual([false, false, false]);
    expect(fromOne[3]).toEqual({ admitted: false, refused: "tooManyJoins", retryAfterSeconds: 600 });
    expect(await queue.status(rule)).toMatchObject({ waiting: 2, admitted: 1 });
    // A place already taken is kept on every refresh: refreshes are not joins.
    for (let refresh = 0; refresh < 5; refresh += 1)
      expect(place(await queue.pass(rule, "bot-3", "192.0.2.1"))).toBe(2);
    // Another address is not held back by the first.
    expect(place(await queue.pass(rule, "buyer", "198.51.100.7"))).toBe(3);
    // One session taking places in room after room is held back too, whatever address it uses.
    const rooms = [1, 2, 3].map(() => room({ activeBuyers: 1, newBuyersPerMinute: null }));
    const hoarded = [];
    for (const [index, other] of rooms.entries())
      hoarded.push(await queue.pass(other, "hoarder", `203.0.113.${index}`));
    expect(hoarded.map((pass) => "refused" in pass)).toEqual([false, false, true]);
    // After the window, the address may join again.
    clock.advance(limits.windowMs);
    expect("refused" in (await queue.pass(rule, "bot-5", "192.0.2.1"))).toBe(false);
  });
});

// Issue 54: the door's side of the room. Arrivals read in the same moment are written in one
// transaction, in the order they came; the line a process compares places with is read at most
// once a LINE_MAX_AGE_MS, and that read lets in whoever's turn it is.
describe.each(DIALECTS)("the door's arrivals and line on %s", (dialect) => {
  let store: TestStore;
  const clock = fixedClock("2026-12-02T10:00:00.000Z");
  beforeAll(async () => {
    store = await createTestStore(dialect);
  });
  afterAll(() => store.drop());

  it("writes a moment's arrivals in one batch, in order, letting in as many as the room holds", async () => {
    const rule = room({ activeBuyers: 2, newBuyersPerMinute: null });
    const queue = createWaitingRoom(store, clock, { idleMs: IDLE_MS });
    const before = store.statements();
    const passes = await Promise.all(Array.from({ length: 8 }, (_, index) => queue.arrive(rule, `door-${index}`)));
    const statements = store.statements() - before;
    expect(passes.slice(0, 2).every((pass) => pass.admitted)).toBe(true);
    expect(passes.slice(2).map(place)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(
      passes.slice(2).map((pass) => (pass.admitted || "refused" in pass || pass.preQueue ? 0 : pass.position)),
    ).toEqual([3, 4, 5, 6, 7, 8]);
    // One transaction for all eight: far fewer statements than eight joins one by one.
    expect(statements).toBeLessThan(20);
    // Arriving again keeps the place; nobody is let in while the room is full.
    expect(place(await queue.arrive(rule, "door-5"))).toBe(4);
    expect(await queue.line(rule)).toMatchObject({ admittedThrough: 2, waiting: 6, preQueue: false });
  });

  it("reads the line at most once a second, and that read lets in the next when a place is free", async () => {
    clock.set("2026-12-02T11:00:00.000Z");
    const rule = room({ activeBuyers: 1, newBuyersPerMinute: null });
    const queue = createWaitingRoom(store, clock, { idleMs: IDLE_MS });
    for (const visitor of ["p", "q", "r"]) await queue.arrive(rule, visitor);
    expect((await queue.line(rule)).admittedThrough).toBe(1);
    // Another process lets p go: this one's line is a second old at most.
    await createWaitingRoom(store, clock, { idleMs: IDLE_MS }).leave("p");
    const before = store.statements();
    expect((await queue.line(rule)).admittedThrough).toBe(1);
    expect(store.statements()).toBe(before);
    clock.advance(LINE_MAX_AGE_MS);
    expect(await queue.line(rule)).toMatchObject({ admittedThrough: 2, waiting: 1 });
    expect((await queue.pass(rule, "q")).admitted).toBe(true);
    // Leaving through this process reads it again at once.
    await queue.leave("q");
    expect((await queue.line(rule)).admittedThrough).toBe(3);
  });

  it("counts a batch's joins against each address's limit in the order they came", async () => {
    clock.set("2026-12-02T12:00:00.000Z");
    const rule = room({ activeBuyers: 1, newBuyersPerMinute: null });
    const queue = createWaitingRoom(store, clock, {
      idleMs: IDLE_MS,
      joinLimits: { perAddress: 3, perSession: 0, windowMs: 10 * 60_000 },
    });
    const passes = await Promise.all(
      Array.from({ length: 5 }, (_, index) => queue.arrive(rule, `limited-${index}`, "192.0.2.1")),
    );
    expect(passes.map((pass) => ("refused" in pass ? "refused" : pass.admitted ? "in" : place(pass)))).toEqual([
      "in",
      1,
      2,
      "refused",
      "refused",
    ]);
    expect(place(await queue.arrive(rule, "elsewhere", "192.0.2.2"))).toBe(3);
  });
});
