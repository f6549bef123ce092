import type { Store } from "~/db/connection.server";

// What the browsing pages read: shows, where they play, and venues.

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

export function createCatalogue(store: Store) {
  const { db } = store;
  return {
    /** Shows with performances still to come, each with the venues it plays at. */
    async listShows(now: Date, venueSlug?: string): Promise<ShowSummary[]> {
      let query = db
        .selectFrom("titles")
        .innerJoin("runs", "runs.title_id", "titles.id")
        .innerJoin("venues", "venues.id", "runs.venue_id")
        .innerJoin("performances", "performances.run_id", "runs.id")
        .select((eb) => [
          "titles.slug",
          "titles.name",
          "titles.age_guidance",
          "titles.running_time_minutes",
          "venues.slug as venue_slug",
          "venues.name as venue_name",
          "venues.city",
          "venues.time_zone",
          eb.fn.min("performances.starts_at").as("first"),
          eb.fn.max("performances.starts_at").as("last"),
        ])
        .where("performances.starts_at", ">", now.toISOString())
        .where("performances.status", "=", "on_sale")
        .groupBy([
          "titles.slug",
          "titles.name",
          "titles.age_guidance",
          "titles.running_time_minutes",
          "venues.slug",
          "venues.name",
          "venues.city",
          "venues.time_zone",
        ])
        .orderBy("titles.name")
        .orderBy("venues.name");
      if (venueSlug) query = query.where("venues.slug", "=", venueSlug);
      const rows = await query.execute();
      const shows = new Map<string, ShowSummary>();
      for (const row of rows) {
        const show = shows.get(row.slug) ?? {
          slug: row.slug,
          name: row.name,
          ageGuidance: row.age_guidance,
          runningTimeMinutes: row.running_time_minutes,
          runs: [],
        };
        show.runs.push({
          venueSlug: row.venue_slug,
          venueName: row.venue_name,
          city: row.city,
          timeZone: row.time_zone,
          firstPerformance: String(row.first),
          lastPerformance: String(row.last),
        });
        shows.set(row.slug, show);
      }
      return [...shows.values()];
    },

    /** A show as it plays at one venue, or undefined when it does not play there. */
    async showAtVenue(titleSlug: string, venueSlug: string) {
      return db
        .selectFrom("runs")
        .innerJoin("titles", "titles.id", "runs.title_id")
        .innerJoin("venues", "venues.id", "runs.venue_id")
        .select([
          "runs.id as runId",
          "titles.slug",
          "titles.name",
          "titles.description",
          "titles.age_guidance as ageGuidance",
          "titles.running_time_minutes as runningTimeMinutes",
          "venues.slug as venueSlug",
          "venues.name as venueName",
          "venues.city",
          "venues.time_zone as timeZone",
        ])
        .where("titles.slug", "=", titleSlug)
        .where("venues.slug", "=", venueSlug)
        .executeTakeFirst();
    },

    /** A performance of a run, or undefined when it is not one of that run's. */
    async performanceOfRun(runId: string, performanceId: string) {
      return db
        .selectFrom("performances")
        .select(["id", "starts_at as startsAt", "seat_limit as seatLimit", "status"])
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
        ])
        .where("slug", "=", slug)
        .executeTakeFirst();
    },

    /** Performances of a run starting in [from, to), in time order. */
    async performances(runId: string, from: Date, to: Date) {
      return db
        .selectFrom("performances")
        .select(["id", "starts_at as startsAt", "presale_from as presaleFrom", "on_sale_from as onSaleFrom", "status"])
        .where("run_id", "=", runId)
        .where("starts_at", ">=", from.toISOString())
        .where("starts_at", "<", to.toISOString())
        .orderBy("starts_at")
        .execute();
    },

    async listVenues() {
      return db.selectFrom("venues").select(["slug", "name", "city", "country"]).orderBy("name").execute();
    },
  };
}

export type Catalogue = ReturnType<typeof createCatalogue>;
