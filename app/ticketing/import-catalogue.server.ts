import { createHash, randomUUID } from "node:crypto";
import { addDays } from "date-fns";
import { formatInTimeZone, fromZonedTime } from "date-fns-tz";
import { sql, type Insertable, type Kysely, type Transaction } from "kysely";
import type { ZodIssue } from "zod";
import type { Clock } from "~/clock";
import type { Store } from "~/db/connection.server";
import type { Database } from "~/db/schema";
import {
  ACCESS_HAZARDS,
  ACCESS_SERVICES,
  catalogueFile,
  type CatalogueFile,
  type CatalogueShow,
} from "./catalogue-file";
import {
  makePicture,
  readPicture,
  type MadePicture,
  type PictureFile,
  type PictureRole,
} from "./catalogue-pictures.server";
import { normaliseCode } from "./promotions.server";
import { expandSeatMap, type ExpandedSection } from "./seat-map";
import { hashRedemptionCode, normaliseVoucherInput } from "./vouchers.server";

export class CatalogueError extends Error {
  constructor(readonly problems: string[]) {
    super(`The catalogue was not imported:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "CatalogueError";
  }
}

export interface ImportSummary {
  venues: number;
  shows: number;
  seats: number;
  performances: number;
  promoCodes: number;
  vouchers: number;
  memberships: number;
  /** Posters and hero pictures made. */
  pictures: number;
}

export interface ImportOptions {
  /**
   * Where pictures come from and go: `from`, the folder the catalogue file is in (a picture's
   * `src` is relative to it); `to`, the images folder the site serves (DATA_DIR/images). Without
   * it, a file that names a picture is refused.
   */
  pictures?: { from: string; to: string };
}

const PICTURE_ROLES: readonly PictureRole[] = ["poster", "hero"];

/** Every picture the file names, read, or the problems with them. */
async function readPictures(file: CatalogueFile, input: unknown, options: ImportOptions) {
  const problems: string[] = [];
  const found = new Map<string, Map<PictureRole, PictureFile>>();
  for (const [index, show] of file.shows.entries()) {
    for (const role of PICTURE_ROLES) {
      const picture = show[role];
      if (!picture) continue;
      const where = describePath(["shows", index, role, "src"], input);
      if (!options.pictures) {
        problems.push(`${where}: pictures are imported only from a catalogue file (npm run catalogue:import -- FILE)`);
        continue;
      }
      const read = await readPicture(picture, options.pictures.from);
      if (typeof read === "string") problems.push(`${where}: ${read}`);
      else found.set(show.slug, (found.get(show.slug) ?? new Map()).set(role, read));
    }
  }
  return { problems, found };
}

const WEEKDAYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
const CHUNK = 400;

/** `venues[1] "harbour-playhouse" › seatMap.sections[0].rows[3].seats`: the field, and the row by its slug. */
function describePath(path: (string | number)[], input: unknown): string {
  const [list, index, ...rest] = path;
  const entry =
    typeof list === "string" && typeof index === "number"
      ? ((input as Record<string, unknown[]> | undefined)?.[list]?.[index] as { slug?: unknown } | undefined)
      : undefined;
  const head = typeof index === "number" ? `${String(list)}[${index}]` : String(list ?? "catalogue");
  const named = typeof entry?.slug === "string" ? `${head} "${entry.slug}"` : head;
  const tail = rest
    .map((part) => (typeof part === "number" ? `[${part}]` : `.${part}`))
    .join("")
    .replace(/^\./, "");
  return tail ? `${named} › ${tail}` : named;
}

const describeIssue = (issue: ZodIssue, input: unknown) => `${describePath(issue.path, input)}: ${issue.message}`;

/** A stable 36-character id (digits, A–F, hyphens), so re-importing a file names the same performance. */
export function performanceIdFor(show: string, venue: string, startsAt: string): string {
  const hex = createHash("sha256").update(`${show}|${venue}|${startsAt}`).digest("hex").slice(0, 32).toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

async function insertChunked<T extends keyof Database>(
  trx: Transaction<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
) {
  for (let start = 0; start < rows.length; start += CHUNK) {
    await trx
      .insertInto(table)
      // Kysely cannot relate a generic table to its row type; the signature above does.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .values(rows.slice(start, start + CHUNK) as any)
      .execute();
  }
}

interface KnownVenue {
  id: string;
  seatMapId: string;
  timeZone: string;
  sections: Map<string, { id: string; kind: "seated" | "standing"; capacity: number; rows: Set<string> }>;
}

async function existingSlugs(db: Kysely<Database>, file: CatalogueFile) {
  const venueSlugs = [
    ...new Set([
      ...file.venues.map((venue) => venue.slug),
      ...file.shows.flatMap((show) => show.runs.map((run) => run.venue)),
      ...file.promoCodes.flatMap((promo) => (promo.scope.kind === "venue" ? [promo.scope.venue] : [])),
    ]),
  ];
  const venues = venueSlugs.length
    ? await db
        .selectFrom("venues")
        .innerJoin("seat_maps", "seat_maps.venue_id", "venues.id")
        .select(["venues.id", "venues.slug", "venues.time_zone", "seat_maps.id as seat_map_id"])
        .where("venues.slug", "in", venueSlugs)
        .execute()
    : [];
  const titles = file.shows.length
    ? await db
        .selectFrom("titles")
        .select("slug")
        .where(
          "slug",
          "in",
          file.shows.map((show) => show.slug),
        )
        .execute()
    : [];
  const codes = file.promoCodes.length
    ? await db
        .selectFrom("promo_codes")
        .select("code")
        .where(
          "code",
          "in",
          file.promoCodes.map((promo) => normaliseCode(promo.code)),
        )
        .execute()
    : [];
  const numbers = file.vouchers.length
    ? await db
        .selectFrom("vouchers")
        .select("number")
        .where(
          "number",
          "in",
          file.vouchers.map((entry) => normaliseVoucherInput(entry.number)),
        )
        .execute()
    : [];
  return {
    venues,
    titles: new Set(titles.map((title) => title.slug)),
    codes: new Set(codes.map((row) => row.code)),
    voucherNumbers: new Set(numbers.map((row) => row.number)),
  };
}

async function loadKnownVenue(
  db: Kysely<Database>,
  venue: { id: string; time_zone: string; seat_map_id: string },
): Promise<KnownVenue> {
  const sections = await db
    .selectFrom("sections")
    .select(["id", "name", "kind", "capacity"])
    .where("seat_map_id", "=", venue.seat_map_id)
    .execute();
  const rows = await db
    .selectFrom("seats")
    .select(["section_id", "row_name"])
    .distinct()
    .where("seat_map_id", "=", venue.seat_map_id)
    .execute();
  return {
    id: venue.id,
    seatMapId: venue.seat_map_id,
    timeZone: venue.time_zone,
    sections: new Map(
      sections.map((section) => [
        section.name,
        {
          id: section.id,
          kind: section.kind,
          capacity: section.capacity,
          rows: new Set(rows.filter((row) => row.section_id === section.id).map((row) => row.row_name)),
        },
      ]),
    ),
  };
}

function checkReferences(
  file: CatalogueFile,
  input: unknown,
  known: Awaited<ReturnType<typeof existingSlugs>>,
): string[] {
  const problems: string[] = [];
  const where = (path: (string | number)[]) => describePath(path, input);
  const seen = new Set<string>();
  file.venues.forEach((venue, index) => {
    if (seen.has(venue.slug)) problems.push(`${where(["venues", index, "slug"])}: appears twice in this file`);
    seen.add(venue.slug);
    if (known.venues.some((existing) => existing.slug === venue.slug))
      problems.push(`${where(["venues", index, "slug"])}: a venue with this slug already exists`);
    if ((venue.country === "GB") !== (venue.currency === "GBP"))
      problems.push(`${where(["venues", index, "currency"])}: GB venues sell in GBP, US venues in USD`);
    const sectionNames = new Set<string>();
    venue.seatMap.sections.forEach((section, sectionIndex) => {
      if (sectionNames.has(section.name))
        problems.push(
          `${where(["venues", index, "seatMap", "sections", sectionIndex, "name"])}: appears twice in this seat map`,
        );
      sectionNames.add(section.name);
      if (section.kind === "seated") {
        const rowNames = new Set<string>();
        section.rows.forEach((row, rowIndex) => {
          if (rowNames.has(row.name))
            problems.push(
              `${where(["venues", index, "seatMap", "sections", sectionIndex, "rows", rowIndex, "name"])}: appears twice in this section`,
            );
          rowNames.add(row.name);
          const last = row.firstNumber + row.seats - 1;
          row.exceptions.forEach((exception, exceptionIndex) => {
            if (exception.seats.some((seat) => seat < row.firstNumber || seat > last)) {
              problems.push(
                `${where(["venues", index, "seatMap", "sections", sectionIndex, "rows", rowIndex, "exceptions", exceptionIndex, "seats"])}: names a seat this row does not have`,
              );
            }
          });
        });
      }
    });
    venue.seatMap.suitedSeats.forEach((entry, entryIndex) => {
      const path = ["venues", index, "seatMap", "suitedSeats", entryIndex];
      const section = venue.seatMap.sections.find((candidate) => candidate.name === entry.section);
      if (!section || section.kind !== "seated") {
        problems.push(`${where([...path, "section"])}: no seated section "${entry.section}" in this seat map`);
        return;
      }
      const missing = (entry.rows ?? []).filter((name) => !section.rows.some((row) => row.name === name));
      if (missing.length) problems.push(`${where([...path, "rows"])}: no row ${missing.join(", ")} in ${section.name}`);
      const seats = entry.seats;
      if (!seats) return;
      const named = section.rows.filter((row) => entry.rows?.includes(row.name) ?? true);
      const short = named.filter((row) =>
        seats.some((seat) => seat < row.firstNumber || seat >= row.firstNumber + row.seats),
      );
      if (short.length)
        problems.push(
          `${where([...path, "seats"])}: names a seat row ${short.map((row) => row.name).join(", ")} of ${section.name} does not have`,
        );
    });
  });
  const showSlugs = new Set<string>();
  file.shows.forEach((show, index) => {
    if (showSlugs.has(show.slug)) problems.push(`${where(["shows", index, "slug"])}: appears twice in this file`);
    showSlugs.add(show.slug);
    if (known.titles.has(show.slug))
      problems.push(`${where(["shows", index, "slug"])}: a show with this slug already exists`);
    show.runs.forEach((run, runIndex) => {
      const venue = file.venues.find((candidate) => candidate.slug === run.venue);
      if (!venue && !known.venues.some((existing) => existing.slug === run.venue)) {
        problems.push(
          `${where(["shows", index, "runs", runIndex, "venue"])}: no venue "${run.venue}" in this file or the database`,
        );
      }
      const { presale, firstDay, days } = run.schedule;
      if (presale && presale.generalSaleInDays >= firstDay + days - presale.lastDays) {
        problems.push(
          `${where(["shows", index, "runs", runIndex, "schedule", "presale", "generalSaleInDays"])}: general sale must open before the first presale performance`,
        );
      }
      run.access.forEach((entry, accessIndex) => {
        if (entry.days.some((day) => day < firstDay || day >= firstDay + days))
          problems.push(
            `${where(["shows", index, "runs", runIndex, "access", accessIndex, "days"])}: names a day outside the schedule (days ${firstDay} to ${firstDay + days - 1})`,
          );
      });
      const planNames = new Set(run.pricePlans.map((plan) => plan.name));
      for (const [day, plan] of Object.entries(run.schedule.pricePlanByDay)) {
        if (!planNames.has(plan))
          problems.push(
            `${where(["shows", index, "runs", runIndex, "schedule", "pricePlanByDay", day])}: no price plan "${plan}" in this run`,
          );
      }
      if (venue) {
        run.pricePlans.forEach((plan, planIndex) =>
          plan.bands.forEach((band, bandIndex) =>
            band.areas.forEach((area, areaIndex) => {
              const section = venue.seatMap.sections.find((candidate) => candidate.name === area.section);
              const path = [
                "shows",
                index,
                "runs",
                runIndex,
                "pricePlans",
                planIndex,
                "bands",
                bandIndex,
                "areas",
                areaIndex,
              ];
              if (!section)
                problems.push(`${where([...path, "section"])}: no section "${area.section}" at ${venue.slug}`);
              else if (area.rows && section.kind === "seated") {
                const missing = area.rows.filter((name) => !section.rows.some((row) => row.name === name));
                if (missing.length)
                  problems.push(`${where([...path, "rows"])}: no row ${missing.join(", ")} in ${section.name}`);
              }
            }),
          ),
        );
      }
    });
  });
  const codes = new Set<string>();
  file.promoCodes.forEach((promo, index) => {
    const code = normaliseCode(promo.code);
    if (codes.has(code)) problems.push(`${where(["promoCodes", index, "code"])}: appears twice in this file`);
    codes.add(code);
    if (known.codes.has(code))
      problems.push(`${where(["promoCodes", index, "code"])}: a promo code "${code}" already exists`);
    if (promo.validUntil <= promo.validFrom)
      problems.push(`${where(["promoCodes", index, "validUntil"])}: must be after validFrom`);
    const scope = promo.scope;
    if (
      scope.kind === "show" &&
      !file.shows.some((show) => show.slug === scope.show) &&
      !known.titles.has(scope.show)
    ) {
      problems.push(
        `${where(["promoCodes", index, "scope", "show"])}: no show "${scope.show}" in this file or the database`,
      );
    }
    if (
      scope.kind === "venue" &&
      !file.venues.some((entry) => entry.slug === scope.venue) &&
      !known.venues.some((entry) => entry.slug === scope.venue)
    ) {
      problems.push(
        `${where(["promoCodes", index, "scope", "venue"])}: no venue "${scope.venue}" in this file or the database`,
      );
    }
  });
  const numbers = new Set<string>();
  file.vouchers.forEach((entry, index) => {
    const number = normaliseVoucherInput(entry.number);
    if (numbers.has(number)) problems.push(`${where(["vouchers", index, "number"])}: appears twice in this file`);
    numbers.add(number);
    if (known.voucherNumbers.has(number))
      problems.push(`${where(["vouchers", index, "number"])}: a voucher with this number already exists`);
  });
  return problems;
}

/**
 * Validates a catalogue and loads all of it, or nothing: every problem is reported at once, each
 * naming the field and the entry it is in.
 */
export async function importCatalogue(
  store: Store,
  input: unknown,
  clock: Clock,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const parsed = catalogueFile.safeParse(input);
  if (!parsed.success) throw new CatalogueError(parsed.error.issues.map((issue) => describeIssue(issue, input)));
  const file = parsed.data;
  const known = await existingSlugs(store.db, file);
  const pictureFiles = await readPictures(file, input, options);
  const problems = [...checkReferences(file, input, known), ...pictureFiles.problems];
  if (problems.length) throw new CatalogueError(problems);
  // Made before the transaction (they are the slow part): a failed import leaves files no row
  // names, harmless under content-hashed names, and the same import again finds them made.
  const pictures = new Map<string, MadePicture[]>();
  for (const [slug, roles] of pictureFiles.found) {
    const made: MadePicture[] = [];
    for (const [role, found] of roles) {
      const show = file.shows.find((candidate) => candidate.slug === slug)!;
      made.push(await makePicture(slug, role, show[role]!, found, options.pictures!.to));
    }
    pictures.set(slug, made);
  }

  const now = clock.now();
  const summary: ImportSummary = {
    venues: 0,
    shows: 0,
    seats: 0,
    performances: 0,
    promoCodes: 0,
    vouchers: 0,
    memberships: 0,
    pictures: 0,
  };

  await store.db.transaction().execute(async (trx) => {
    const venues = new Map<string, KnownVenue>();
    for (const existing of known.venues) venues.set(existing.slug, await loadKnownVenue(trx, existing));
    const maxSeat = await trx
      .selectFrom("seats")
      .select((eb) => eb.fn.max("id").as("max"))
      .executeTakeFirst();
    let nextSeatId = Number(maxSeat?.max ?? 0) + 1;
    const seatIdsBySection = new Map<string, { id: number; rowName: string; withheld: boolean }[]>();

    for (const venue of file.venues) {
      const venueId = randomUUID();
      const seatMapId = randomUUID();
      await trx
        .insertInto("venues")
        .values({
          id: venueId,
          slug: venue.slug,
          name: venue.name,
          country: venue.country,
          currency: venue.currency,
          time_zone: venue.timeZone,
          wording_set: venue.wordingSet,
          support_phone: venue.supportPhone,
          address_lines: venue.address.lines.join("\n"),
          city: venue.address.city,
          postcode: venue.address.postcode,
          region: venue.address.region ?? null,
          transaction_fee: venue.transactionFee,
          protection_fee: venue.protectionFee,
          access_info: venue.access ?? null,
          travel_info: venue.travel ?? null,
          imported_at: now.toISOString(),
        })
        .execute();
      await trx
        .insertInto("seat_maps")
        .values({ id: seatMapId, venue_id: venueId, name: venue.seatMap.name })
        .execute();
      const knownVenue: KnownVenue = { id: venueId, seatMapId, timeZone: venue.timeZone, sections: new Map() };
      const expanded: ExpandedSection[] = expandSeatMap(venue.seatMap.sections, venue.seatMap.suitedSeats);
      for (const [order, section] of expanded.entries()) {
        const sectionId = randomUUID();
        await trx
          .insertInto("sections")
          .values({
            id: sectionId,
            seat_map_id: seatMapId,
            name: section.name,
            sort_order: order,
            kind: section.kind,
            capacity: section.capacity,
          })
          .execute();
        const seats = section.seats.map((seat) => ({ ...seat, id: nextSeatId++ }));
        await insertChunked(
          trx,
          "seats",
          seats.map((seat) => ({
            id: seat.id,
            seat_map_id: seatMapId,
            section_id: sectionId,
            row_name: seat.rowName,
            row_order: seat.rowOrder,
            label: seat.label,
            position: seat.position,
            x: seat.x,
            y: seat.y,
            seat_type: seat.seatType,
            restrictions: seat.restrictions.join(","),
            quality: seat.quality,
            view_note: seat.viewNote,
            suits: seat.suits.join(","),
          })),
        );
        seatIdsBySection.set(
          sectionId,
          seats.map((seat) => ({ id: seat.id, rowName: seat.rowName, withheld: seat.withheld })),
        );
        knownVenue.sections.set(section.name, {
          id: sectionId,
          kind: section.kind,
          capacity: section.capacity,
          rows: new Set(section.seats.map((seat) => seat.rowName)),
        });
        summary.seats += seats.length;
      }
      await insertChunked(
        trx,
        "extras",
        venue.extras.map((extra, order) => ({
          id: randomUUID(),
          venue_id: venueId,
          name: extra.name,
          description: extra.description,
          price: extra.price,
          sort_order: order,
        })),
      );
      await insertChunked(
        trx,
        "delivery_methods",
        venue.delivery.map((method, order) => ({
          id: randomUUID(),
          venue_id: venueId,
          kind: method.kind,
          fee: method.fee,
          countries: method.countries.join(","),
          sort_order: order,
        })),
      );
      await insertChunked(
        trx,
        "venue_questions",
        venue.questions.map((question, order) => ({
          id: randomUUID(),
          venue_id: venueId,
          kind: question.kind,
          label: question.label,
          options: question.kind === "choice" ? question.options.join("|") : "",
          sort_order: order,
        })),
      );
      venues.set(venue.slug, knownVenue);
      summary.venues += 1;
    }

    for (const show of file.shows) {
      summary.performances += await importShow(trx, show, venues, seatIdsBySection, now, pictures.get(show.slug) ?? []);
      summary.shows += 1;
      summary.pictures += pictures.get(show.slug)?.length ?? 0;
    }
    await insertChunked(
      trx,
      "promo_codes",
      file.promoCodes.map((promo) => ({
        id: randomUUID(),
        code: normaliseCode(promo.code),
        rule_key: promo.rule.kind,
        percent: promo.rule.kind === "percentageOff" ? promo.rule.percent : null,
        amount: promo.rule.kind === "amountOff" ? promo.rule.amount : null,
        currency: promo.rule.kind === "amountOff" ? promo.rule.currency : null,
        price_option_kind: promo.rule.kind === "specialPrice" ? promo.rule.priceOption : null,
        special_face_value: promo.rule.kind === "specialPrice" ? promo.rule.faceValue : null,
        scope_kind: promo.scope.kind,
        scope_ref:
          promo.scope.kind === "show"
            ? promo.scope.show
            : promo.scope.kind === "venue"
              ? promo.scope.venue
              : promo.scope.kind === "performance"
                ? promo.scope.performance.toUpperCase()
                : null,
        valid_from: new Date(promo.validFrom).toISOString(),
        valid_until: new Date(promo.validUntil).toISOString(),
        usage_limit: promo.usageLimit ?? null,
      })),
    );
    summary.promoCodes = file.promoCodes.length;
    for (const entry of file.vouchers) {
      const id = randomUUID();
      await trx
        .insertInto("vouchers")
        .values({
          id,
          number: normaliseVoucherInput(entry.number),
          code_hash: hashRedemptionCode(entry.redemptionCode),
          kind: entry.kind,
          currency: entry.currency,
          balance: entry.balance,
          expires_at: new Date(entry.expires).toISOString(),
          created_at: now.toISOString(),
        })
        .execute();
      await trx
        .insertInto("voucher_movements")
        .values({
          id: randomUUID(),
          voucher_id: id,
          amount: entry.balance,
          reason: "issued",
          order_id: null,
          created_at: now.toISOString(),
        })
        .execute();
    }
    summary.vouchers = file.vouchers.length;
    for (const product of file.memberships) {
      for (const { currency, price } of product.prices) {
        // A re-import changes what the membership costs from now on; periods already bought stay.
        await trx
          .insertInto("membership_products")
          .values({ id: randomUUID(), kind: product.kind, name: product.name, currency, price, months: product.months })
          .onConflict((oc) =>
            oc.columns(["kind", "currency"]).doUpdateSet({ name: product.name, price, months: product.months }),
          )
          .execute();
      }
    }
    summary.memberships = file.memberships.length;
  });
  // A bulk load leaves PostgreSQL's planner without statistics until autovacuum comes round;
  // gather them now so the first buyers do not meet nested loops over thousands of seats.
  if (store.dialect === "postgres") await sql`analyze`.execute(store.db);
  return summary;
}

async function sectionSeats(
  trx: Transaction<Database>,
  cache: Map<string, { id: number; rowName: string; withheld: boolean }[]>,
  sectionId: string,
) {
  if (!cache.has(sectionId)) {
    const rows = await trx.selectFrom("seats").select(["id", "row_name"]).where("section_id", "=", sectionId).execute();
    // Withheld seats of a venue already in the database are those withheld for its performances; a new run starts with none.
    cache.set(
      sectionId,
      rows.map((row) => ({ id: row.id, rowName: row.row_name, withheld: false })),
    );
  }
  return cache.get(sectionId)!;
}

async function importShow(
  trx: Transaction<Database>,
  show: CatalogueShow,
  venues: Map<string, KnownVenue>,
  seatCache: Map<string, { id: number; rowName: string; withheld: boolean }[]>,
  now: Date,
  pictures: MadePicture[],
): Promise<number> {
  const titleId = randomUUID();
  await trx
    .insertInto("titles")
    .values({
      id: titleId,
      slug: show.slug,
      name: show.name,
      description: show.description,
      age_guidance: show.ageGuidance,
      running_time_minutes: show.runningTimeMinutes,
      image_url: show.image ?? null,
      access_info: show.access ?? null,
      genre: show.genre ?? null,
      performers: JSON.stringify(show.performers),
      access_hazards: ACCESS_HAZARDS.filter((hazard) => show.hazards.includes(hazard)).join(","),
      imported_at: now.toISOString(),
    })
    .execute();
  await insertChunked(
    trx,
    "title_pictures",
    pictures.map((picture) => ({
      title_id: titleId,
      role: picture.role,
      alt: picture.alt,
      width: picture.width,
      height: picture.height,
      sources: JSON.stringify(picture.sources),
    })),
  );
  let performances = 0;
  for (const run of show.runs) {
    const venue = venues.get(run.venue)!;
    const runId = randomUUID();
    await trx
      .insertInto("runs")
      .values({ id: runId, title_id: titleId, venue_id: venue.id, seat_map_id: venue.seatMapId })
      .execute();

    const plans = new Map<string, { id: string; capacity: number; withheld: number[] }>();
    for (const plan of run.pricePlans) {
      const withheld: number[] = [];
      const planId = randomUUID();
      await trx.insertInto("price_plans").values({ id: planId, run_id: runId, name: plan.name }).execute();
      const bandOfSeat = new Map<number, string>();
      const bandOfArea = new Map<string, string>();
      for (const [order, band] of plan.bands.entries()) {
        const bandId = randomUUID();
        await trx
          .insertInto("price_bands")
          .values({ id: bandId, price_plan_id: planId, code: band.code, name: band.name, sort_order: order })
          .execute();
        await insertChunked(
          trx,
          "price_options",
          band.options.map((option, optionOrder) => ({
            id: randomUUID(),
            price_band_id: bandId,
            kind: option.kind,
            label:
              option.label ??
              (option.kind === "full" ? "Full Price" : option.kind[0]!.toUpperCase() + option.kind.slice(1)),
            face_value: option.faceValue,
            booking_fee: option.bookingFee,
            sort_order: optionOrder,
          })),
        );
        for (const area of band.areas) {
          const section = venue.sections.get(area.section)!;
          if (section.kind === "standing") {
            bandOfArea.set(section.id, bandId);
            continue;
          }
          for (const seat of await sectionSeats(trx, seatCache, section.id)) {
            if (!area.rows || area.rows.includes(seat.rowName)) bandOfSeat.set(seat.id, bandId);
          }
        }
      }
      // Every seat of the map needs a band: a seat no band covers is not for sale in this run.
      for (const section of venue.sections.values()) {
        if (section.kind !== "seated") continue;
        for (const seat of await sectionSeats(trx, seatCache, section.id)) {
          if (seat.withheld || !bandOfSeat.has(seat.id)) withheld.push(seat.id);
        }
      }
      await insertChunked(
        trx,
        "price_plan_seats",
        [...bandOfSeat].map(([seatId, bandId]) => ({ price_plan_id: planId, seat_id: seatId, price_band_id: bandId })),
      );
      await insertChunked(
        trx,
        "price_plan_areas",
        [...bandOfArea].map(([sectionId, bandId]) => ({
          price_plan_id: planId,
          section_id: sectionId,
          price_band_id: bandId,
        })),
      );
      let capacity = 0;
      for (const section of venue.sections.values()) {
        if (section.kind === "standing") {
          if (bandOfArea.has(section.id)) capacity += section.capacity;
        } else {
          capacity += (await sectionSeats(trx, seatCache, section.id)).filter(
            (seat) => bandOfSeat.has(seat.id) && !seat.withheld,
          ).length;
        }
      }
      plans.set(plan.name, { id: planId, capacity, withheld });
    }

    const { schedule } = run;
    const today = formatInTimeZone(now, venue.timeZone, "yyyy-MM-dd");
    const rows: Insertable<Database["performances"]>[] = [];
    const presaleFrom = schedule.presale ? now.toISOString() : null;
    // A scheduled on-sale: every performance goes on sale at its time, its queue opening before.
    // The times are the performances' own; the run's room keeps only its limits (decision 0029).
    const onSale = schedule.onSale
      ? {
          at: new Date(schedule.onSale.at).toISOString(),
          queueOpensAt: new Date(
            new Date(schedule.onSale.at).getTime() - schedule.onSale.preQueueMinutes * 60_000,
          ).toISOString(),
        }
      : null;
    if (schedule.onSale && onSale)
      await trx
        .insertInto("on_sale_rooms")
        .values({
          run_id: runId,
          active_buyers: schedule.onSale.activeBuyers,
          new_buyers_per_minute: schedule.onSale.newBuyersPerMinute ?? null,
        })
        .execute();
    const generalSale = schedule.presale ? addDays(now, schedule.presale.generalSaleInDays).toISOString() : null;
    for (let day = schedule.firstDay; day < schedule.firstDay + schedule.days; day += 1) {
      const date = formatInTimeZone(
        addDays(fromZonedTime(`${today}T12:00:00`, venue.timeZone), day),
        venue.timeZone,
        "yyyy-MM-dd",
      );
      const weekday = WEEKDAYS[new Date(`${date}T12:00:00Z`).getUTCDay()]!;
      const plan = plans.get(schedule.pricePlanByDay[weekday] ?? run.pricePlans[0]!.name)!;
      for (const time of schedule.times[weekday] ?? []) {
        const access = run.access.filter((entry) => entry.days.includes(day) && (entry.times?.includes(time) ?? true));
        const services = ACCESS_SERVICES.filter((service) => access.some((entry) => entry.services.includes(service)));
        const startsAt = fromZonedTime(`${date}T${time}:00`, venue.timeZone).toISOString();
        const inPresale =
          schedule.presale !== undefined && day >= schedule.firstDay + schedule.days - schedule.presale.lastDays;
        rows.push({
          id: performanceIdFor(show.slug, run.venue, startsAt),
          run_id: runId,
          price_plan_id: plan.id,
          starts_at: startsAt,
          on_sale_from: inPresale ? generalSale! : (onSale?.at ?? now.toISOString()),
          queue_opens_at: onSale?.queueOpensAt ?? null,
          on_sale_until: startsAt,
          presale_from: inPresale ? presaleFrom : null,
          presale_until: inPresale ? generalSale : null,
          presale_audience: inPresale ? schedule.presale!.audience.join(",") : "",
          seat_limit: schedule.seatLimit,
          notice: schedule.notice ?? null,
          admission_message: schedule.admissionMessage ?? null,
          timed_entry: schedule.timedEntry ?? null,
          access_services: services.join(","),
          access_notes: access.flatMap((entry) => entry.notes ?? []).join(" ") || null,
          capacity: plan.capacity,
          status: "on_sale",
        });
      }
    }
    await insertChunked(trx, "performances", rows);
    const withheldOf = new Map([...plans.values()].map((plan) => [plan.id, plan.withheld]));
    await insertChunked(
      trx,
      "seat_claims",
      rows.flatMap((performance) =>
        withheldOf.get(performance.price_plan_id)!.map((seatId) => ({
          performance_id: performance.id,
          seat_id: seatId,
          status: "withheld" as const,
          hold_id: null,
          held_until: null,
          order_id: null,
        })),
      ),
    );
    performances += rows.length;
  }
  return performances;
}
