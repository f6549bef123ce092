import { systemClock, type Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import { CATALOGUE_MAX_AGE_MS, remembered } from "./catalogue-facts.server";
import type { PictureSource } from "./catalogue-pictures.server";
import { saleBegun } from "./sale-window";
import { accessServicesOf, type AccessService } from "~/views/access-services";

// What the browsing pages read: shows, where they play, and venues.

export interface VenueQuestion {
  id: string;
  kind: "choice" | "text";
  label: string;
  options: string[];
}

/** A venue as its checkout sells it: the venue's facts and what it offers beside the tickets. */
export interface VenueOffer {
  venue: {
    id: string;
    slug: string;
    name: string;
    country: "GB" | "US";
    currency: "GBP" | "USD";
    protectionFee: number;
  };
  extras: { id: string; name: string; description: string; price: number }[];
  deliveryMethods: { id: string; kind: "eTicket" | "post" | "boxOffice"; fee: number; countries: string[] }[];
  questions: VenueQuestion[];
}

export interface ShowSummary {
  slug: string;
  name: string;
  ageGuidance: string;
  runningTimeMinutes: number;
  runs: {
    venueSlug: string;
    venueName: string;
    city: string;
    timeZone: string;
    firstPerformance: string;
    lastPerformance: string;
  }[];
}

/** A show's poster or hero picture as the import made it. */
export interface StoredPicture {
  alt: string;
  width: number;
  height: number;
  sources: PictureSource[];
}

/** A run (a show at a venue) with its performances still to play and selling, for the home and venue pages. */
export interface RunOnSale {
  runId: string;
  slug: string;
  name: string;
  ageGuidance: string;
  venueSlug: string;
  venueName: string;
  city: string;
  timeZone: string;
  currency: "GBP" | "USD";
  performances: { id: string; startsAt: string; planId: string }[];
}

const PERFORMANCE_FIELDS = [
  "id",
  "price_plan_id as planId",
  "starts_at as startsAt",
  "presale_from as presaleFrom",
  "presale_until as presaleUntil",
  "presale_audience as presaleAudience",
  "queue_opens_at as queueOpensAt",
  "on_sale_from as onSaleFrom",
  "on_sale_until as onSaleUntil",
  "seat_limit as seatLimit",
  "status",
  "access_services as accessServices",
  "access_notes as accessNotes",
] as const;

export function createCatalogue(store: Store, clock: Clock = systemClock, maxAgeMs = CATALOGUE_MAX_AGE_MS) {
  const { db } = store;

  /**
   * What a venue offers beside the tickets (extras, delivery methods with the countries each
   * reaches, its own questions with their choices), and the venue's facts the checkout needs.
   * Every checkout step reads it: kept as catalogue-facts.server.ts keeps the rest.
   */
  async function venueOffer(venueSlug: string): Promise<VenueOffer | undefined> {
    const venue = await db
      .selectFrom("venues")
      .select(["id", "slug", "name", "country", "currency", "protection_fee"])
      .where("slug", "=", venueSlug)
      .executeTakeFirst();
    if (!venue) return undefined;
    const [extras, deliveryMethods, questions] = await Promise.all([
      db
        .selectFrom("extras")
        .select(["id", "name", "description", "price"])
        .where("venue_id", "=", venue.id)
        .orderBy("sort_order")
        .execute(),
      db
        .selectFrom("delivery_methods")
        .select(["id", "kind", "fee", "countries"])
        .where("venue_id", "=", venue.id)
        .orderBy("sort_order")
        .execute(),
      db
        .selectFrom("venue_questions")
        .select(["id", "kind", "label", "options"])
        .where("venue_id", "=", venue.id)
        .orderBy("sort_order")
        .execute(),
    ]);
    return {
      venue: {
        id: venue.id,
        slug: venue.slug,
        name: venue.name,
        country: venue.country,
        currency: venue.currency,
        protectionFee: venue.protection_fee,
      },
      extras,
      deliveryMethods: deliveryMethods.map((method) => ({ ...method, countries: method.countries.split(",") })),
      questions: questions.map((question) => ({
        ...question,
        options: question.options ? question.options.split("|") : [],
      })),
    };
  }

  /** Runs with what a page says of their show and venue. */
  const runsWithShowAndVenue = () =>
    db
      .selectFrom("runs")
      .innerJoin("titles", "titles.id", "runs.title_id")
      .innerJoin("venues", "venues.id", "runs.venue_id")
      .select([
        "runs.id as runId",
        "titles.slug",
        "titles.name",
        "titles.age_guidance as ageGuidance",
        "titles.running_time_minutes as runningTimeMinutes",
        "venues.slug as venueSlug",
        "venues.name as venueName",
        "venues.city",
        "venues.time_zone as timeZone",
        "venues.currency",
        "venues.country as venueCountry",
      ]);

  const reads = {
    /** A show as it plays at one venue, or undefined when it does not play there. */
    async showAtVenue(titleSlug: string, venueSlug: string) {
      return runsWithShowAndVenue()
        .select([
          "titles.description",
          "venues.transaction_fee as transactionFee",
          "venues.country",
          "venues.address_lines as addressLines",
          "venues.postcode",
          "venues.region",
          "venues.access_info as venueAccess",
          "titles.access_info as showAccess",
          "titles.access_hazards as accessHazards",
          "venues.support_phone as venuePhone",
          // What a search engine's listing of the show says (app/views/structured-data.ts).
          "titles.genre",
          "titles.performers",
          "titles.image_url as imageUrl",
          "titles.imported_at as importedAt",
          "venues.imported_at as venueImportedAt",
        ])
        .where("titles.slug", "=", titleSlug)
        .where("venues.slug", "=", venueSlug)
        .executeTakeFirst();
    },

    /** Every price option a run sells, in any of its price plans. */
    async priceOptionsOfRun(runId: string) {
      const rows = await db
        .selectFrom("price_options")
        .innerJoin("price_bands", "price_bands.id", "price_options.price_band_id")
        .innerJoin("price_plans", "price_plans.id", "price_bands.price_plan_id")
        .select(["price_options.id", "price_options.kind", "price_options.face_value", "price_options.booking_fee"])
        .where("price_plans.run_id", "=", runId)
        .execute();
      return rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        faceValue: Number(row.face_value),
        bookingFee: Number(row.booking_fee),
      }));
    },

    /**
     * A performance of a run, with what the tickets page needs to sell it, or undefined when it is
     * not one of that run's. Kept a while like the rest (the engine checks the sale window again,
     * on the row itself, in the transaction that holds a seat).
     */
    async performanceOfRun(runId: string, performanceId: string) {
      return db
        .selectFrom("performances")
        .select([
          "id",
          "starts_at",
          "seat_limit",
          "status",
          "on_sale_from",
          "on_sale_until",
          "presale_from",
          "presale_until",
          "presale_audience",
          "queue_opens_at",
          "notice",
          "admission_message",
          "timed_entry",
          "access_services",
          "access_notes",
        ])
        .where("run_id", "=", runId)
        .where("id", "=", performanceId.toUpperCase())
        .executeTakeFirst();
    },

    async venue(slug: string) {
      return db
        .selectFrom("venues")
        .select([
          "slug",
          "name",
          "country",
          "currency",
          "time_zone",
          "wording_set",
          "support_phone",
          "address_lines",
          "city",
          "postcode",
          "region",
          "access_info",
          "travel_info",
        ])
        .where("slug", "=", slug)
        .executeTakeFirst();
    },

    /** Performances of a run starting in [from, to), in time order. */
    /** Where and when a performance plays, as an order's pages and email say it. */
    async placeOfPerformance(performanceId: string) {
      return db
        .selectFrom("performances")
        .innerJoin("runs", "runs.id", "performances.run_id")
        .innerJoin("venues", "venues.id", "runs.venue_id")
        .innerJoin("titles", "titles.id", "runs.title_id")
        .select([
          "performances.starts_at",
          "titles.slug as title_slug",
          "venues.name as venue_name",
          "venues.slug as venue_slug",
          "venues.time_zone",
          "venues.support_phone",
          "venues.country",
          "performances.access_services",
          "performances.access_notes",
          // Where it is and how long it runs: the confirmation's way there and its calendar entry.
          "venues.address_lines",
          "venues.city",
          "venues.region",
          "venues.postcode",
          "venues.travel_info",
          "titles.running_time_minutes",
        ])
        .where("performances.id", "=", performanceId)
        .executeTakeFirst();
    },

    async priceOptionLabel(id: string) {
      return (await db.selectFrom("price_options").select("label").where("id", "=", id).executeTakeFirst())?.label;
    },

    async extraName(id: string) {
      return (await db.selectFrom("extras").select("name").where("id", "=", id).executeTakeFirst())?.name;
    },

    async listVenues() {
      return db.selectFrom("venues").select(["slug", "name", "city", "country"]).orderBy("name").execute();
    },

    /** Every venue with its address, by name: the venues page. */
    async venuesWithAddresses() {
      const rows = await db
        .selectFrom("venues")
        .select(["slug", "name", "address_lines", "city", "postcode", "region", "country"])
        .orderBy("name")
        .execute();
      return rows.length ? rows : undefined;
    },

    /** Every show's pictures, by the show's slug and the picture's role. */
    async pictures(_all: "all") {
      const rows = await db
        .selectFrom("title_pictures")
        .innerJoin("titles", "titles.id", "title_pictures.title_id")
        .select(["titles.slug", "title_pictures.role", "alt", "width", "height", "sources"])
        .execute();
      const pictures = new Map<string, Partial<Record<"poster" | "hero", StoredPicture>>>();
      for (const row of rows) {
        const picture: StoredPicture = {
          alt: row.alt,
          width: Number(row.width),
          height: Number(row.height),
          sources: JSON.parse(row.sources) as PictureSource[],
        };
        pictures.set(row.slug, { ...pictures.get(row.slug), [row.role]: picture });
      }
      return pictures;
    },
  };

  // The show, venue and performance a page is for: read on every show, calendar and tickets
  // request, and as unchanging as the rest of what was imported.
  const keyOf = (...parts: string[]) => parts.join("\u0000");
  const partsOf = (key: string) => key.split("\u0000") as [string, string];
  const showAtVenue = remembered(clock, (key: string) => reads.showAtVenue(...partsOf(key)), maxAgeMs);
  const placeOfPerformance = remembered(clock, reads.placeOfPerformance, maxAgeMs);
  const performanceOfRun = remembered(clock, (key: string) => reads.performanceOfRun(...partsOf(key)), maxAgeMs);
  // A run's performances, all of them in the order they play: the show and calendar pages asked
  // five statements of them on every request (issue 19's profile), each answered here instead.
  const readRunPerformances = (runId: string) =>
    db
      .selectFrom("performances")
      .select(PERFORMANCE_FIELDS)
      .where("run_id", "=", runId)
      .orderBy("starts_at")
      .orderBy("id")
      .execute();
  type RunPerformance = Awaited<ReturnType<typeof readRunPerformances>>[number];
  const performancesOfRun = remembered(
    clock,
    async (runId: string) => {
      const rows = await readRunPerformances(runId);
      return rows.length ? rows : undefined;
    },
    maxAgeMs,
  );
  const runPerformances = async (runId: string) => (await performancesOfRun(runId)) ?? [];
  /** Still to start after `at` and not cancelled. */
  const upcoming = (performance: RunPerformance, at: string) =>
    performance.startsAt > at && performance.status === "on_sale";
  // Every run with its show and venue, in the order the show list gives them (by the database's
  // collation, as before): kept, like each run's performances, so the home and venue pages read
  // nothing per request. A new import's show joins the list within CATALOGUE_MAX_AGE_MS.
  const listedRuns = remembered(
    clock,
    async (_all: "all") => {
      const rows = await runsWithShowAndVenue().orderBy("titles.name").orderBy("venues.name").execute();
      return rows.length ? rows : undefined;
    },
    maxAgeMs,
  );
  const runReads = {
    /** Shows with performances still to come, each with the venues it plays at (only `venueSlug`'s when given). */
    async listShows(now: Date, venueSlug?: string): Promise<ShowSummary[]> {
      const at = now.toISOString();
      const runs = ((await listedRuns("all")) ?? []).filter((run) => !venueSlug || run.venueSlug === venueSlug);
      const performances = await Promise.all(runs.map((run) => runPerformances(run.runId)));
      const shows = new Map<string, ShowSummary>();
      runs.forEach((run, index) => {
        const upcomingOfRun = performances[index]!.filter((p) => upcoming(p, at));
        if (upcomingOfRun.length === 0) return;
        const show = shows.get(run.slug) ?? {
          slug: run.slug,
          name: run.name,
          ageGuidance: run.ageGuidance,
          runningTimeMinutes: run.runningTimeMinutes,
          runs: [],
        };
        show.runs.push({
          venueSlug: run.venueSlug,
          venueName: run.venueName,
          city: run.city,
          timeZone: run.timeZone,
          firstPerformance: upcomingOfRun[0]!.startsAt,
          lastPerformance: upcomingOfRun[upcomingOfRun.length - 1]!.startsAt,
        });
        shows.set(run.slug, show);
      });
      return [...shows.values()];
    },

    /**
     * Access performances (issue 43) still to play and selling after `now`, of every run (only
     * `venueSlug`'s or `titleSlug`'s when given), in date order: the /access page.
     */
    async accessPerformances(now: Date, only: { venueSlug?: string; titleSlug?: string } = {}) {
      const at = now.toISOString();
      const runs = ((await listedRuns("all")) ?? []).filter(
        (run) =>
          (!only.venueSlug || run.venueSlug === only.venueSlug) && (!only.titleSlug || run.slug === only.titleSlug),
      );
      const performances = await Promise.all(runs.map((run) => runPerformances(run.runId)));
      return runs
        .flatMap((run, index) =>
          performances[index]!.filter((p) => p.accessServices !== "" && upcoming(p, at) && p.onSaleUntil > at).map(
            (p) => ({
              performance: p,
              slug: run.slug,
              name: run.name,
              venueSlug: run.venueSlug,
              venueName: run.venueName,
              venueCountry: run.venueCountry,
              timeZone: run.timeZone,
            }),
          ),
        )
        .sort((a, b) => a.performance.startsAt.localeCompare(b.performance.startsAt) || a.name.localeCompare(b.name));
    },

    /**
     * Runs with performances still to play and selling after `now` (only `venueSlug`'s when
     * given), each with those performances in order: the home and venue pages' cards.
     */
    async runsOnSale(now: Date, venueSlug?: string): Promise<RunOnSale[]> {
      const at = now.toISOString();
      const runs = ((await listedRuns("all")) ?? []).filter((run) => !venueSlug || run.venueSlug === venueSlug);
      const performances = await Promise.all(runs.map((run) => runPerformances(run.runId)));
      return runs.flatMap((run, index) => {
        const selling = performances[index]!.filter((p) => upcoming(p, at) && p.onSaleUntil > at);
        if (selling.length === 0) return [];
        return [
          {
            runId: run.runId,
            slug: run.slug,
            name: run.name,
            ageGuidance: run.ageGuidance,
            venueSlug: run.venueSlug,
            venueName: run.venueName,
            city: run.city,
            timeZone: run.timeZone,
            currency: run.currency,
            performances: selling.map((p) => ({ id: p.id, startsAt: p.startsAt, planId: p.planId })),
          },
        ];
      });
    },

    /** A run's performances starting in [from, to), in order. */
    async performances(runId: string, from: Date, to: Date) {
      const [start, end] = [from.toISOString(), to.toISOString()];
      return (await runPerformances(runId)).filter((p) => p.startsAt >= start && p.startsAt < end);
    },

    /** The next `limit` performances of a run still to start after `now`, cancelled ones left out. */
    async nextPerformances(runId: string, now: Date, limit: number) {
      const at = now.toISOString();
      return (await runPerformances(runId)).filter((p) => upcoming(p, at)).slice(0, limit);
    },

    /**
     * The first and last performances of a run still to start after `now` (and still selling),
     * and the first whose sale, queue or presale has begun: where the calendar opens. Null when
     * nothing is left to play.
     */
    async runSpan(runId: string, now: Date) {
      const at = now.toISOString();
      const selling = (await runPerformances(runId)).filter((p) => upcoming(p, at) && p.onSaleUntil > at);
      if (selling.length === 0) return null;
      return {
        first: selling[0]!.startsAt,
        last: selling[selling.length - 1]!.startsAt,
        firstOnSale: selling.find((p) => saleBegun(p, now))?.startsAt ?? null,
      };
    },

    /**
     * The nearest performances of a run outside [from, to): the last one before `from` (still to
     * start after `now`) and the first at or after `to`. The calendar's previous and next links
     * go to their months, and only exist when there is somewhere to go. With `access`, only
     * performances with that access service count: a filtered calendar's links go where it finds some.
     */
    async performancesAround(runId: string, now: Date, from: Date, to: Date, access?: AccessService) {
      const [at, start, end] = [now.toISOString(), from.toISOString(), to.toISOString()];
      const later = (await runPerformances(runId)).filter(
        (p) => upcoming(p, at) && (!access || accessServicesOf(p.accessServices).includes(access)),
      );
      const before = later.filter((p) => p.startsAt < start);
      return {
        before: before[before.length - 1]?.startsAt ?? null,
        after: later.find((p) => p.startsAt >= end)?.startsAt ?? null,
      };
    },
  };
  const priceOptionLabel = remembered(clock, reads.priceOptionLabel, maxAgeMs);
  const pictures = remembered(clock, reads.pictures, maxAgeMs);
  const venuesWithAddresses = remembered(clock, reads.venuesWithAddresses, maxAgeMs);
  const extraName = remembered(clock, reads.extraName, maxAgeMs);
  return {
    ...reads,
    ...runReads,
    venueOffer: remembered(clock, venueOffer, maxAgeMs),
    venue: remembered(clock, reads.venue, maxAgeMs),
    venuesWithAddresses: async () => (await venuesWithAddresses("all")) ?? [],
    /** A show's poster and hero picture, when it has them. */
    picturesOf: async (titleSlug: string) => (await pictures("all"))?.get(titleSlug) ?? {},
    placeOfPerformance,
    /** The phone number of a performance's venue (spec section 8: the buyer phones the venue). */
    venuePhoneOfPerformance: async (performanceId: string): Promise<string | null> =>
      (await placeOfPerformance(performanceId))?.support_phone ?? null,
    /** The names a summary gives price options and extras, by id. */
    async names(ids: { priceOptions: string[]; extras: string[] }) {
      const [options, extras] = await Promise.all([
        Promise.all(ids.priceOptions.map(async (id) => [id, await priceOptionLabel(id)] as const)),
        Promise.all(ids.extras.map(async (id) => [id, await extraName(id)] as const)),
      ]);
      const labels = new Map(options);
      const names = new Map(extras);
      return { priceOption: (id: string) => labels.get(id), extra: (id: string) => names.get(id) };
    },
    showAtVenue: (titleSlug: string, venueSlug: string) => showAtVenue(keyOf(titleSlug, venueSlug)),
    performanceOfRun: (runId: string, performanceId: string) =>
      performanceOfRun(keyOf(runId, performanceId.toUpperCase())),
  };
}

export type Catalogue = ReturnType<typeof createCatalogue>;
