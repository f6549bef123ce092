import { z } from "zod";
import { slug } from "~/urls/params";
import { ACCESS_SERVICES, isAccessService } from "~/views/access-services";
import { ACCESS_HAZARDS, isAccessHazard, oppositeHazard } from "~/views/access-hazards";

export { ACCESS_SERVICES, type AccessService } from "~/views/access-services";
export { ACCESS_HAZARDS, type AccessHazard } from "~/views/access-hazards";

// The catalogue file operators import (`npm run catalogue:import -- FILE`) and the demo catalogue
// is written in. Seat maps are described the way venues draw them (sections of rows with a seat
// count, aisles and exceptions) and expanded into seats on import.

export const SEAT_TYPES = ["standard", "package", "promotional", "access", "wheelchair", "companion"] as const;
export const RESTRICTIONS = ["package", "wheelchair", "accessZone", "amex", "promo"] as const;
export type SeatType = (typeof SEAT_TYPES)[number];
export const SHOW_GENRES = ["play", "musical", "music", "comedy", "dance", "opera", "family"] as const;
export type Restriction = (typeof RESTRICTIONS)[number];

const money = z.number().int().min(0).max(10_000_000);
const name = z.string().trim().min(1).max(200);
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be HH:MM");

const timeZone = z.string().refine((zone) => {
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}, "must be an IANA time zone such as Europe/London");

/** "12", "1-4" or "1-4,9,11-12": seat numbers, or days of a schedule. */
const numberList = (message: string) =>
  z
    .string()
    .regex(/^\d+(-\d+)?(,\d+(-\d+)?)*$/, message)
    .transform((value) =>
      value.split(",").flatMap((part) => {
        const [from, to = from] = part.split("-").map(Number) as [number, number?];
        const numbers: number[] = [];
        for (let n = Math.min(from, to!); n <= Math.max(from, to!); n += 1) numbers.push(n);
        return numbers;
      }),
    );

const seatNumbers = numberList('must be seat numbers such as "7" or "1-4,9"');

/** Named in the refusal with every allowed value, so an operator can correct a typo at once. */
const accessService = z.string().refine(isAccessService, (value) => ({
  message: `unknown access service "${value}": use one of ${ACCESS_SERVICES.join(", ")}`,
}));

/**
 * Access services on some of a run's performances: the days (counted as `firstDay` is, so a range
 * of the run's dates), optionally only the performances at some times of those days.
 */
const accessPerformances = z.object({
  days: numberList('must be days of the schedule such as "12" or "12-14,20"'),
  times: z.array(clock).min(1).optional(),
  services: z.array(accessService).min(1).max(ACCESS_SERVICES.length),
  /** What a buyer needs to know, e.g. "touch tour at 13:00, book by phone". */
  notes: z.string().trim().min(1).max(200).optional(),
});

/** schema.org's words for what a show warns of, or says it has none of; unknown ones named in the refusal. */
const accessHazards = z
  .array(
    z.string().refine(isAccessHazard, (value) => ({
      message: `unknown hazard "${value}": use one of ${ACCESS_HAZARDS.join(", ")}`,
    })),
  )
  .max(ACCESS_HAZARDS.length / 2)
  .superRefine((hazards, ctx) => {
    hazards.forEach((hazard, index) => {
      if (!isAccessHazard(hazard)) return;
      if (hazards.indexOf(hazard) !== index)
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [index], message: `"${hazard}" is given twice` });
      else if (hazards.slice(0, index).includes(oppositeHazard(hazard)))
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: [index],
          message: `"${hazard}" contradicts "${oppositeHazard(hazard)}": a show has a hazard or says it has none, not both`,
        });
    });
  });

const row = z.object({
  name: z.string().trim().min(1).max(8),
  seats: z.number().int().min(1).max(150),
  firstNumber: z.number().int().min(0).default(1),
  /** Seat numbers after which the row is cut by an aisle. */
  aislesAfter: z.array(z.number().int().min(0)).default([]),
  /** 0–100: how good the row is; seats lose up to 20 towards the ends. */
  quality: z.number().int().min(0).max(100),
  /** Horizontal shift in seat widths, for rows that do not sit centred. */
  offset: z.number().min(-100).max(100).default(0),
  exceptions: z
    .array(
      z.object({
        seats: seatNumbers,
        type: z.enum(SEAT_TYPES).optional(),
        restrictions: z.array(z.enum(RESTRICTIONS)).default([]),
        viewNote: z.string().trim().min(1).max(120).optional(),
        /** Not for sale at all (house seats, a camera position). */
        withheld: z.boolean().default(false),
      }),
    )
    .default([]),
});

const section = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("seated"),
    name,
    /** 0 for straight rows; up to 1 for a deep horseshoe. */
    curve: z.number().min(0).max(1).default(0),
    rows: z.array(row).min(1),
  }),
  z.object({ kind: z.literal("standing"), name, capacity: z.number().int().min(1).max(100_000) }),
]);

/**
 * Seats suited to access services (issue 43): for captioned performances, seats with a view of the
 * caption screen; for audio description, seats in range of the transmitter or near the headset
 * desk; for signed ones, a clear view of the interpreter. A part of the house, optionally only some
 * of its rows, optionally only some seat numbers of those rows, as price bands name areas. Entries
 * add up; the seat map marks them, and best available prefers them, only on performances that
 * carry the service.
 */
const suitedSeats = z.object({
  suits: z.array(accessService).min(1).max(ACCESS_SERVICES.length),
  section: name,
  rows: z.array(z.string().trim().min(1).max(8)).min(1).optional(),
  seats: seatNumbers.optional(),
});

const venue = z.object({
  slug,
  name,
  country: z.enum(["GB", "US"]),
  currency: z.enum(["GBP", "USD"]),
  timeZone,
  wordingSet: slug,
  supportPhone: z.string().trim().min(3).max(40),
  address: z.object({
    lines: z.array(z.string().trim().min(1).max(100)).min(1).max(3),
    city: z.string().trim().min(1).max(40),
    postcode: z.string().trim().min(3).max(10),
    region: z.string().trim().min(2).max(40).optional(),
  }),
  transactionFee: money,
  protectionFee: money,
  /** What the venue page says about access (step-free routes, hearing loops, assistance dogs…). */
  access: z.string().trim().min(1).max(2000).optional(),
  /** How to get there: trains, buses, parking. */
  travel: z.string().trim().min(1).max(2000).optional(),
  seatMap: z.object({
    name,
    sections: z.array(section).min(1),
    suitedSeats: z.array(suitedSeats).default([]),
  }),
  extras: z.array(z.object({ name, description: z.string().trim().max(500), price: money })).default([]),
  delivery: z
    .array(
      z.object({
        kind: z.enum(["eTicket", "post", "boxOffice"]),
        fee: money,
        countries: z.array(z.enum(["GB", "US"])).min(1),
      }),
    )
    .min(1),
  // Questions the venue asks on the contact details step: a choice, or a free answer.
  questions: z
    .array(
      z.discriminatedUnion("kind", [
        z.object({
          kind: z.literal("choice"),
          label: z.string().trim().min(1).max(200),
          options: z.array(name).min(2).max(20),
        }),
        z.object({ kind: z.literal("text"), label: z.string().trim().min(1).max(200) }),
      ]),
    )
    .max(5)
    .default([]),
});

const priceOption = z.object({
  kind: z.enum(["full", "concession", "child", "member", "promo"]),
  label: z.string().trim().min(1).max(60).optional(),
  faceValue: money,
  bookingFee: money,
});

const band = z.object({
  code: z.string().trim().min(1).max(8),
  name,
  /** Where the band applies: a section, optionally only some of its rows. Later bands win. */
  areas: z.array(z.object({ section: name, rows: z.array(z.string().min(1)).optional() })).min(1),
  options: z.array(priceOption).min(1),
});

const isoDateTime = z
  .string()
  .datetime({ offset: true, message: "must be a date and time such as 2027-01-31T23:59:59Z" });

const weekday = z.enum(["mon", "tue", "wed", "thu", "fri", "sat", "sun"]);

const run = z.object({
  venue: slug,
  /** Captioned, audio-described, signed… performances of this run; later entries add to earlier ones. */
  access: z.array(accessPerformances).default([]),
  pricePlans: z.array(z.object({ name, bands: z.array(band).min(1) })).min(1),
  schedule: z
    .object({
      /** Days from the day of import: 1 is tomorrow. */
      firstDay: z.number().int().min(0).max(3650),
      days: z.number().int().min(1).max(400),
      times: z.record(weekday, z.array(clock)),
      /** The price plan for each weekday; the first plan otherwise. */
      pricePlanByDay: z.record(weekday, name).default({}),
      seatLimit: z.number().int().min(1).max(100),
      /**
       * The last N days of the schedule are newly released: in presale (for the audience) from the
       * import until general sale opens, `generalSaleInDays` days after the import.
       */
      presale: z
        .object({
          lastDays: z.number().int().min(1),
          audience: z.array(z.enum(["plus-member", "promo"])).min(1),
          generalSaleInDays: z.number().int().min(1).max(365),
        })
        .optional(),
      /**
       * A scheduled on-sale with a waiting room (issue 20): general sale opens at `at` for every
       * performance; the queue opens `preQueueMinutes` before, and whoever is in it by `at` gets a
       * place drawn at random; then at most `activeBuyers` choose seats at once, and at most
       * `newBuyersPerMinute` come in each minute.
       */
      onSale: z
        .object({
          at: isoDateTime,
          preQueueMinutes: z.number().int().min(0).max(1440).default(30),
          activeBuyers: z.number().int().min(1).max(1_000_000),
          newBuyersPerMinute: z.number().int().min(1).max(1_000_000).optional(),
        })
        .optional(),
      notice: z.string().trim().max(500).optional(),
      admissionMessage: z.string().trim().max(500).optional(),
      timedEntry: z.string().trim().max(200).optional(),
    })
    .refine((schedule) => !(schedule.presale && schedule.onSale), {
      message: "a run has a presale or a scheduled on-sale, not both",
      path: ["onSale"],
    }),
});

/**
 * A show's picture: a file beside the catalogue (a path relative to the catalogue file: JPEG, PNG,
 * WebP, AVIF, GIF, TIFF or SVG), from which the import makes the sizes and formats pages serve.
 * Not a URL: an operator has the file, and the site serves every picture from its own origin.
 * The alt text is what a buyer who cannot see the picture reads instead, so it is required.
 */
const picture = z.object(
  {
    src: z
      .string({ required_error: "give the image file, as a path relative to the catalogue file" })
      .trim()
      .min(1)
      .max(300)
      .refine(
        (value) => !/^[a-z][a-z0-9+.-]*:/i.test(value),
        "must be a file path relative to the catalogue file, not a URL (download the image beside the catalogue)",
      ),
    alt: z
      .string({
        required_error:
          "an image needs alt text: say what it shows for buyers who cannot see it (the show's name and what the picture shows)",
      })
      .trim()
      .min(1, "an image needs alt text: say what it shows for buyers who cannot see it")
      .max(300),
  },
  { invalid_type_error: 'must be an object such as { "src": "posters/show.jpg", "alt": "…" }' },
);

const show = z.object({
  slug,
  name,
  description: z.string().trim().min(1).max(4000),
  ageGuidance: z.string().trim().min(1).max(120),
  runningTimeMinutes: z.number().int().min(1).max(600),
  /** Kept for older files: an address stored as it is and not shown. Use `poster`. */
  image: z.string().max(300).optional(),
  /** Portrait, 2:3 is best: the show's card and page. */
  poster: picture.optional(),
  /** Landscape, optional: the top of the show's page. */
  hero: picture.optional(),
  /** Step-free access, captioned or relaxed performances: what the show page says about access. */
  access: z.string().trim().min(1).max(2000).optional(),
  /**
   * What the show warns of, in schema.org's accessibilityHazard words: "flashing", "sound",
   * "motionSimulation", or "noFlashingHazard", "noSoundHazard", "noMotionSimulationHazard" for
   * what it says it does not have. Leave one out to say nothing of it.
   */
  hazards: accessHazards.default([]),
  /** What kind of show: "music" (a concert, a gig, a DJ) is listed by search engines as a MusicEvent. */
  genre: z.enum(SHOW_GENRES).optional(),
  /** Who performs, where the catalogue knows: a company, a band, a person. */
  performers: z
    .array(z.object({ name, kind: z.enum(["person", "group"]).default("group") }))
    .max(20)
    .default([]),
  runs: z.array(run).min(1),
});

const promoCode = z.object({
  code: z.string().regex(/^[A-Za-z0-9-]{3,32}$/, "must be 3 to 32 letters, digits or hyphens"),
  rule: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("percentageOff"), percent: z.number().int().min(1).max(100) }),
    z.object({
      kind: z.literal("amountOff"),
      amount: money.refine((value) => value > 0, "must be more than 0"),
      currency: z.enum(["GBP", "USD"]),
    }),
    z.object({
      kind: z.literal("specialPrice"),
      priceOption: z.enum(["full", "concession", "child", "member", "promo"]),
      faceValue: money,
    }),
    z.object({ kind: z.literal("unlockPresale") }),
    z.object({ kind: z.literal("unlockPromoSeats") }),
  ]),
  scope: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("all") }),
    z.object({ kind: z.literal("show"), show: slug }),
    z.object({ kind: z.literal("venue"), venue: slug }),
    z.object({ kind: z.literal("performance"), performance: z.string().regex(/^[0-9A-Fa-f-]{36}$/) }),
  ]),
  validFrom: isoDateTime,
  validUntil: isoDateTime,
  /** 1 for a single-use code; leave out for no limit. */
  usageLimit: z.number().int().min(1).optional(),
});

const voucher = z.object({
  number: z.string().regex(/^[A-Za-z0-9 -]{6,24}$/, "must be 6 to 24 letters, digits, spaces or hyphens"),
  redemptionCode: z.string().regex(/^[A-Za-z0-9 -]{4,16}$/, "must be 4 to 16 letters, digits, spaces or hyphens"),
  kind: z.enum(["voucher", "giftCard"]),
  currency: z.enum(["GBP", "USD"]),
  balance: money,
  expires: isoDateTime,
});

// The paid ("plus") membership the operator sells: one price per currency. Its benefits are the
// domain's (app/ticketing/memberships.ts), the same for every operator.
const membershipProduct = z.object({
  kind: z.literal("plus"),
  name,
  months: z.number().int().min(1).max(60),
  prices: z
    .array(
      z.object({ currency: z.enum(["GBP", "USD"]), price: money.refine((value) => value > 0, "must be more than 0") }),
    )
    .min(1)
    .refine(
      (prices) => new Set(prices.map((entry) => entry.currency)).size === prices.length,
      "one price per currency",
    ),
});

export const catalogueFile = z.object({
  venues: z.array(venue).default([]),
  shows: z.array(show).default([]),
  promoCodes: z.array(promoCode).default([]),
  vouchers: z.array(voucher).default([]),
  memberships: z.array(membershipProduct).max(1).default([]),
});

export type CatalogueFile = z.infer<typeof catalogueFile>;
export type CatalogueVenue = CatalogueFile["venues"][number];
export type CatalogueShow = CatalogueFile["shows"][number];
export type CataloguePicture = z.infer<typeof picture>;
export type CatalogueRow = z.infer<typeof row>;
export type CatalogueSuitedSeats = z.infer<typeof suitedSeats>;
export type CatalogueInput = z.input<typeof catalogueFile>;
