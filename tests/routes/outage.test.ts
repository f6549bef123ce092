import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logLines, startServer } from "../support/app";
import { buyerBrowser } from "../support/browser";
import { expectNoInternals } from "../support/internals";
import { smallCatalogueFacts } from "../support/checkout-journey";
import { privatePostgres, wipeSqliteFile, type PrivatePostgres } from "../support/outage";
import { seedSmall } from "../support/seed";

// A store that cannot be reached, on each database, with the deployment's defaults (APP_ENV
// unset): pages and forms answer 503 with the site's error page and Retry-After, never a refusal
// that blames the seats or the buyer, and the log says what failed.

const FRIENDLY = "Sorry, something went wrong on our side. Please try again in a few moments.";

for (const dialect of ["sqlite", "postgres"] as const) {
  describe(`a store outage on ${dialect}`, () => {
    let postgres: PrivatePostgres | null = null;
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    const { logger, lines } = logLines("warn");
    let visitor: ReturnType<typeof buyerBrowser>;
    let page: string;
    let seatId: number;

    beforeAll(async () => {
      if (dialect === "postgres") {
        postgres = await privatePostgres();
        if (!postgres) return;
      }
      server = await startServer(
        { APP_ENV: undefined, ...(postgres && { DATABASE_URL: postgres.url }) },
        { seed: seedSmall, logger },
      );
      const db = server.services.store.db;
      const { performanceId } = await smallCatalogueFacts(server.services.store);
      page = `/shows/test-show/test-hall/tickets/${performanceId}`;
      seatId = (await db.selectFrom("seats").select("id").orderBy("id").executeTakeFirstOrThrow()).id;

      // Before: the page is there, and the buyer has the cookies its form needs.
      visitor = buyerBrowser(server.url);
      const before = await visitor.get(page);
      expect(before.status).toBe(200);
      expect(await before.text()).toContain(`value="${seatId}"`);

      // The outage itself: PostgreSQL's server stops; SQLite's file turns unreadable.
      if (postgres) postgres.stop();
      else await wipeSqliteFile(server.services);
    });
    afterAll(async () => {
      await server?.close();
      postgres?.drop();
    });

    const expectOutage = async (response: Response) => {
      expect(response.status).toBe(503);
      expect(response.headers.get("Retry-After")).toMatch(/^\d+$/);
      const body = await response.text();
      expectNoInternals(body);
      return body;
    };
    const expectOutagePage = async (response: Response) => {
      const html = await expectOutage(response);
      expect(html).toContain("<title>Internal server issue");
      expect(html).toContain(FRIENDLY);
    };
    const chooseSeat = () =>
      [
        ["intent", "select"],
        ["seat", String(seatId)],
      ] as [string, string][];
    /** A test of this outage: skipped (with the notice above) where no PostgreSQL cluster of our own could be made. */
    const during = (name: string, test: () => Promise<void>) =>
      it(name, async (context) => {
        if (!server) context.skip();
        await test();
      });

    during("a seat chosen on the tickets page answers 503 and the error page, not a refusal", async () => {
      await expectOutagePage(await visitor.post(page, chooseSeat()));
    });

    during("the tickets page answers 503 and the error page", async () => {
      await expectOutagePage(await visitor.get(page));
    });

    during("a browser with script gets 503 for the page's data and for the seat map's form", async () => {
      await expectOutage(await visitor.get(`${page}.data`));
      await expectOutage(await visitor.post(`${page}.data`, chooseSeat()));
    });

    during("the log has what failed, with its stack", async () => {
      await visitor.get(page);
      const logged = lines.filter((line) => line.msg === "store unreachable");
      expect(logged.length).toBeGreaterThan(0);
      for (const line of logged) expect((line.err as { stack: string }).stack).toMatch(/\n\s+at /);
    });
  });
}
