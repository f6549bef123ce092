import { isIP } from "node:net";
import { z } from "zod";
import { ROUTING_MODES } from "~/urls/route-table.js";
import { LANGUAGES } from "~/i18n/languages";
import { THEMES } from "~/themes/themes";
import { slug } from "~/urls/params";
import { experimentsSchema } from "~/config/experiments";
import { readBrand, type Brand } from "~/config/brand.server";
import { MAX_WEB_CONCURRENCY } from "~/config/cores.server";

export const WALLETS = ["googlePay", "applePay"] as const;
/** Where each wallet's browser payment method lives: PaymentRequest asks it, so CSP must allow it. */
export const WALLET_ORIGINS: Record<(typeof WALLETS)[number], string> = {
  googlePay: "https://google.com",
  applePay: "https://apple.com",
};

/**
 * How long a payment may wait for the buyer or the gateway before the reconciler settles it: past
 * PAYMENT_TIMEOUT_SECONDS, and well within a 15-minute hold, so an authorisation the buyer left
 * behind still finds their seats held (docs/configuration.md, PAYMENT_RECONCILE_AFTER_SECONDS).
 */
export const DEFAULT_RECONCILE_AFTER_SECONDS = 300;
export const SESSION_SECRET_MIN_LENGTH = 32;

const optionalUrl = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .pipe(z.string().url("must be an absolute URL").optional());

const optionalSlug = z
  .string()
  .trim()
  .transform((value) => value || undefined)
  .pipe(slug.optional());

/** The names Express gives address ranges (proxy-addr's): loopback, link-local and private networks. */
const PROXY_RANGE_NAMES = ["loopback", "linklocal", "uniquelocal"];

/** An address, or a range of them in CIDR form (10.0.0.0/8, fd00::/8), as Express's trust proxy takes them. */
function isAddressOrRange(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = "", bits, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128));
}

/**
 * Which proxies in front may say who the client is, with Express's `trust proxy` semantics: a
 * number of hops, or the proxies' addresses and ranges. Express then takes the client's address
 * from the right of X-Forwarded-For, past the proxies trusted, where no client can write it.
 * `true` is refused: Express would believe the left-most entry, which the client chose (issue 53;
 * docs/decisions/0052-secrets-and-the-real-client-address.md).
 */
const trustProxySetting = z
  .string()
  .trim()
  .default("false")
  .transform((value, ctx): false | number | string[] => {
    if (value === "" || value === "false" || value === "0") return false;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    if (value === "true") {
      ctx.addIssue({
        code: "custom",
        message:
          "true would believe the left-most X-Forwarded-For address, which the client writes: give the number of proxies in front (1 for one nginx) or their addresses (such as 10.0.0.2, 172.16.0.0/12 or loopback)",
      });
      return z.NEVER;
    }
    const entries = value.split(",").map((entry) => entry.trim());
    if (!entries.every(isAddressOrRange)) {
      ctx.addIssue({
        code: "custom",
        message: `must be false, the number of proxies in front (1 for one nginx), or their comma-separated addresses and CIDR ranges (${PROXY_RANGE_NAMES.join(", ")} also name ranges)`,
      });
      return z.NEVER;
    }
    return entries;
  });

/** Where the data lives: all the operator's commands (migrate, catalogue import) need. */
const storeEnv = {
  DATABASE_URL: z
    .string()
    .trim()
    .default("")
    .refine((value) => value === "" || /^postgres(ql)?:\/\//.test(value), {
      message: "must be empty (embedded SQLite) or a postgres:// URL",
    }),
  DATA_DIR: z.string().trim().min(1).default("data"),
};

const envSchema = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    // Heroku's name for it, which buildpacks and platforms already set to the machine's cores.
    // Unset: one process per core the container may use in staging and production, one elsewhere
    // (serverProcesses, app/config/cores.server.ts; decision 0057).
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(MAX_WEB_CONCURRENCY).optional(),
    APP_ENV: z.enum(["development", "test", "staging", "production"]).default("development"),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    ...storeEnv,
    SESSION_SECRET: z.string().default(""),
    // Who takes the money. Unset: the built-in sandbox in development and test; in production the
    // operator must say, so a deployment never takes "payments" that are no money (issue 39).
    PAYMENT_PROVIDER: z.enum(["sandbox", "stripe"]).optional(),
    // The sandbox in production (a demonstration site, say) only when asked for in so many words.
    SANDBOX_IN_PRODUCTION: z.enum(["yes", "no"]).default("no"),
    // Stripe (docs/buying.md, "Taking real payments"). The card entry has no default: `direct` keeps the
    // card form on our page (works without script; PCI DSS SAQ D), `hosted` sends the buyer to
    // Stripe Checkout (SAQ A; Stripe's page needs script). The operator chooses knowing which.
    STRIPE_SECRET_KEY: z
      .string()
      .trim()
      .default("")
      .refine((value) => value === "" || /^(sk|rk)_(test|live)_\w+$/.test(value), {
        message: "must be a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_…)",
      }),
    STRIPE_WEBHOOK_SECRET: z.string().trim().default(""),
    STRIPE_MODE: z.enum(["direct", "hosted"]).optional(),
    // Another Stripe-compatible API (a local stand-in for tests); unset, Stripe's own.
    STRIPE_API_URL: optionalUrl.default(""),
    // PayPal beside the card provider, when its REST app's credentials are given.
    PAYPAL_CLIENT_ID: z.string().trim().default(""),
    PAYPAL_CLIENT_SECRET: z.string().trim().default(""),
    PAYPAL_ENVIRONMENT: z.enum(["sandbox", "live"]).optional(),
    PAYPAL_WEBHOOK_ID: z.string().trim().default(""),
    PAYPAL_API_URL: optionalUrl.default(""),
    // Unset: `auto` in development and test, `off` in staging and production, where demo shows and
    // their sold seats would be sold beside real ones (issue 17 item 5). Set `auto` to ask for it.
    DEMO_CATALOGUE: z.enum(["auto", "off"]).optional(),
    AVAILABILITY_THRESHOLDS: z
      .string()
      .default("0.5,0.2")
      .transform((value) => value.split(",").map((part) => Number(part.trim())))
      .refine(
        (parts) => parts.length === 2 && parts.every((part) => part > 0 && part < 1) && parts[0]! > parts[1]!,
        "must be two shares between 0 and 1, the Good one first and larger, such as 0.5,0.2",
      )
      .transform(([good, medium]) => ({ good: good!, medium: medium! })),
    AVAILABILITY_MAX_AGE_SECONDS: z.coerce.number().min(0).max(300).default(5),
    HOLD_MINUTES: z.coerce.number().int().min(1).max(120).default(15),
    HOLD_EXTENSION_MINUTES: z.coerce.number().int().min(1).max(120).default(10),
    HOLD_MAX_MINUTES: z.coerce.number().int().min(1).max(240).default(45),
    // The waiting room (issue 20): 0 buyers at once means no queue.
    QUEUE_ACTIVE_BUYERS: z.coerce.number().int().min(0).max(1_000_000).default(0),
    QUEUE_NEW_BUYERS_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).optional(),
    QUEUE_IDLE_MINUTES: z.coerce.number().int().min(1).max(120).default(10),
    // New places in the queue per client address and per session, over a window (issue 41): a
    // bot farm without cookies takes a new place per request otherwise. 0: no limit. An address
    // can be a mobile carrier's or an office's, many buyers behind one: its limit is generous.
    QUEUE_JOINS_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).default(100),
    QUEUE_JOINS_PER_SESSION: z.coerce.number().int().min(0).max(1_000).default(5),
    QUEUE_JOIN_WINDOW_MINUTES: z.coerce.number().int().min(1).max(1_440).default(10),
    // Who may see each room's numbers at /queuez (issue 41); without it, totals only. Long enough
    // not to be guessed.
    QUEUE_STATUS_TOKEN: z
      .string()
      .trim()
      .default("")
      .refine((value) => value === "" || value.length >= 24, {
        message: "must be empty (/queuez shows totals only) or at least 24 characters",
      }),
    DOMAIN: z.string().trim().min(1).default("localhost"),
    LANGUAGE: z.enum(LANGUAGES).default("en-GB"),
    // Unset: the brand file's theme, else "default" (README, "The brand").
    THEME: z.enum(THEMES).optional(),
    ROUTING_TYPE: z
      .enum(["", ...ROUTING_MODES.filter((mode) => mode !== "DEFAULT")] as [string, ...string[]])
      .default("")
      .transform((value) => (value || "DEFAULT") as (typeof ROUTING_MODES)[number]),
    SHOW_PAGE: optionalUrl.default(""),
    TITLE_SLUG: optionalSlug.default(""),
    VENUE_SLUG: optionalSlug.default(""),
    TRUST_PROXY: trustProxySetting,
    AUTH_URL: optionalUrl.default(""),
    TICKETING_API_URL: optionalUrl.default(""),
    CUSTOMER_ACCOUNTS_URL: optionalUrl.default(""),
    MANAGE_ACCOUNT_URL: optionalUrl.default(""),
    SESSION_URL: optionalUrl.default(""),
    PAYMENT_URL: optionalUrl.default(""),
    CUSTOMER_PROFILE_URL: optionalUrl.default(""),
    EXPERIMENTATION_ID: z.string().trim().default(""),
    SMTP_URL: z
      .string()
      .trim()
      .default("")
      .refine((value) => value === "" || /^smtps?:\/\//.test(value), {
        message: "must be empty (write emails to the outbox folder) or an smtp:// or smtps:// URL",
      }),
    EMAIL_FROM: z.string().trim().min(3).default("Box Office <tickets@localhost>"),
    PUBLIC_URL: optionalUrl.default(""),
    PAYMENT_TIMEOUT_SECONDS: z.coerce.number().min(1).max(300).default(30),
    PAYMENT_RECONCILE_AFTER_SECONDS: z.coerce.number().min(1).max(86_400).default(DEFAULT_RECONCILE_AFTER_SECONDS),
    PAYMENT_RECONCILE_INTERVAL_SECONDS: z.coerce.number().min(1).max(3600).default(60),
    // A bearer token for /metrics; without one, production answers 404 there (decision 0046).
    METRICS_TOKEN: z
      .string()
      .trim()
      .default("")
      .refine((value) => value === "" || value.length >= 16, { message: "must be at least 16 characters" }),
    PAYMENT_NOTIFICATION_SECRET: z
      .string()
      .default("")
      .refine((value) => value === "" || value.length >= 16, { message: "must be at least 16 characters" }),
    CARD_TOKENISATION_SCRIPT_URL: optionalUrl.default(""),
    WALLETS: z
      .string()
      .trim()
      .default("")
      .transform((value) =>
        value
          .split(",")
          .map((wallet) => wallet.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(WALLETS), { message: `must be a comma-separated list of ${WALLETS.join(", ")}` })),
    EXPERIMENTS: z
      .string()
      .default("[]")
      .transform((value, ctx) => {
        try {
          return JSON.parse(value) as unknown;
        } catch {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: "must be JSON" });
          return z.NEVER;
        }
      })
      .pipe(experimentsSchema),
  })
  .superRefine((env, ctx) => {
    const secrets = env.SESSION_SECRET.split(",")
      .map((secret) => secret.trim())
      .filter(Boolean);
    // Only development makes its own (a random one kept in DATA_DIR): anywhere else a site whose
    // secret nobody chose could be a public one signing cookies anyone can forge (issue 53).
    if (env.APP_ENV !== "development" && secrets.length === 0) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: `is required when APP_ENV is ${env.APP_ENV}` });
    }
    // Staging rehearses production with real providers' test accounts, so what those need applies
    // there too; the sandbox is staging's default, and only production must name its provider.
    const productionLike = env.APP_ENV === "production" || env.APP_ENV === "staging";
    if (env.APP_ENV === "production" && env.PAYMENT_PROVIDER === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["PAYMENT_PROVIDER"],
        message: "is required when APP_ENV is production: stripe, or sandbox (which takes no real money)",
      });
    }
    if (env.PAYMENT_PROVIDER === "stripe") {
      if (!env.STRIPE_SECRET_KEY)
        ctx.addIssue({
          code: "custom",
          path: ["STRIPE_SECRET_KEY"],
          message: "is required when PAYMENT_PROVIDER is stripe",
        });
      if (!env.STRIPE_MODE)
        ctx.addIssue({
          code: "custom",
          path: ["STRIPE_MODE"],
          message:
            "is required when PAYMENT_PROVIDER is stripe: direct (cards on our page, PCI DSS SAQ D) or hosted (Stripe Checkout, SAQ A)",
        });
      if (productionLike && !env.STRIPE_WEBHOOK_SECRET)
        ctx.addIssue({
          code: "custom",
          path: ["STRIPE_WEBHOOK_SECRET"],
          message: `is required when APP_ENV is ${env.APP_ENV}: the signing secret of the webhook endpoint /payments/notifications`,
        });
    }
    if (Boolean(env.PAYPAL_CLIENT_ID) !== Boolean(env.PAYPAL_CLIENT_SECRET))
      ctx.addIssue({
        code: "custom",
        path: [env.PAYPAL_CLIENT_ID ? "PAYPAL_CLIENT_SECRET" : "PAYPAL_CLIENT_ID"],
        message: "PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET go together",
      });
    if (env.PAYPAL_CLIENT_ID && !env.PAYPAL_ENVIRONMENT)
      ctx.addIssue({
        code: "custom",
        path: ["PAYPAL_ENVIRONMENT"],
        message: "is required with PAYPAL_CLIENT_ID: sandbox or live",
      });
    // A real provider sends the buyer back to an absolute address: it must be the one they use.
    if (productionLike && !env.PUBLIC_URL && (env.PAYMENT_PROVIDER === "stripe" || Boolean(env.PAYPAL_CLIENT_ID)))
      ctx.addIssue({
        code: "custom",
        path: ["PUBLIC_URL"],
        message: `is required when APP_ENV is ${env.APP_ENV} and a real payment provider sends buyers back`,
      });
    if (env.APP_ENV === "production" && env.PAYMENT_PROVIDER === "sandbox" && env.SANDBOX_IN_PRODUCTION !== "yes") {
      ctx.addIssue({
        code: "custom",
        path: ["PAYMENT_PROVIDER"],
        message: "sandbox takes no real money: set SANDBOX_IN_PRODUCTION=yes to run it in production anyway",
      });
    }
    if (secrets.some((secret) => secret.length < SESSION_SECRET_MIN_LENGTH)) {
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: `each secret must be at least ${SESSION_SECRET_MIN_LENGTH} characters`,
      });
    }
    if (env.HOLD_MAX_MINUTES < env.HOLD_MINUTES) {
      ctx.addIssue({ code: "custom", path: ["HOLD_MAX_MINUTES"], message: "must be at least HOLD_MINUTES" });
    }
    // The reconciler must not pre-empt an answer the buyer is still being told to wait for.
    if (env.PAYMENT_RECONCILE_AFTER_SECONDS <= env.PAYMENT_TIMEOUT_SECONDS) {
      ctx.addIssue({
        code: "custom",
        path: ["PAYMENT_RECONCILE_AFTER_SECONDS"],
        message: "must be longer than PAYMENT_TIMEOUT_SECONDS",
      });
    }
    if (env.ROUTING_TYPE === "SINGLE_SHOW" && !env.TITLE_SLUG) {
      ctx.addIssue({ code: "custom", path: ["TITLE_SLUG"], message: "is required when ROUTING_TYPE is SINGLE_SHOW" });
    }
    if ((env.ROUTING_TYPE === "SINGLE_SHOW" || env.ROUTING_TYPE === "SINGLE_VENUE") && !env.VENUE_SLUG) {
      ctx.addIssue({
        code: "custom",
        path: ["VENUE_SLUG"],
        message: `is required when ROUTING_TYPE is ${env.ROUTING_TYPE}`,
      });
    }
  });

export type Config = ReturnType<typeof toConfig>;

function toConfig(env: z.output<typeof envSchema>, brand: Brand) {
  const secrets = env.SESSION_SECRET.split(",")
    .map((secret) => secret.trim())
    .filter(Boolean);
  const production = env.APP_ENV === "production" || env.APP_ENV === "staging";
  return {
    port: env.PORT,
    /**
     * Server processes on this machine (node:cluster) as the operator set them; 1 serves from this
     * process alone. Unset: server.ts decides (serverProcesses: the usable cores in staging and
     * production), so that reading the configuration reads no /sys file.
     */
    webConcurrency: env.WEB_CONCURRENCY,
    appEnv: env.APP_ENV,
    production,
    paymentProvider: env.PAYMENT_PROVIDER ?? "sandbox",
    logLevel: env.LOG_LEVEL,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR,
    demoCatalogue: env.DEMO_CATALOGUE ?? (production ? "off" : "auto"),
    availabilityThresholds: env.AVAILABILITY_THRESHOLDS,
    availabilityMaxAgeMs: env.AVAILABILITY_MAX_AGE_SECONDS * 1000,
    holdPolicy: {
      holdMinutes: env.HOLD_MINUTES,
      extensionMinutes: env.HOLD_EXTENSION_MINUTES,
      maxHoldMinutes: env.HOLD_MAX_MINUTES,
    },
    waitingRoom: {
      activeBuyers: env.QUEUE_ACTIVE_BUYERS,
      newBuyersPerMinute: env.QUEUE_NEW_BUYERS_PER_MINUTE ?? null,
      idleMs: env.QUEUE_IDLE_MINUTES * 60_000,
      joinLimits: {
        perAddress: env.QUEUE_JOINS_PER_ADDRESS,
        perSession: env.QUEUE_JOINS_PER_SESSION,
        windowMs: env.QUEUE_JOIN_WINDOW_MINUTES * 60_000,
      },
      /** The operator's token for /queuez's per-room numbers; "" for none. */
      statusToken: env.QUEUE_STATUS_TOKEN,
    },
    /**
     * Newest first: the first signs new cookies, all of them still verify old ones. Empty only in
     * development with SESSION_SECRET unset: the services then use the data folder's own random
     * secret (developmentSessionSecret), made on its first start.
     */
    sessionSecrets: secrets,
    domain: env.DOMAIN,
    language: env.LANGUAGE,
    // Where the deployment sells what belongs to no venue (the membership): a US deployment in
    // dollars, the rest in pounds, as the language already says.
    market:
      env.LANGUAGE === "en-US"
        ? { country: "US" as const, currency: "USD" as const, timeZone: "America/New_York" }
        : { country: "GB" as const, currency: "GBP" as const, timeZone: "Europe/London" },
    theme: env.THEME ?? brand.theme ?? "default",
    /**
     * The deployment's brand (BRAND_FILE and the BRAND_* variables): each field unset falls back to
     * the wording sets' default, and a venue's own phone and wording set still win on its pages.
     */
    brand: {
      name: brand.name,
      phone: brand.phone,
      email: brand.email,
      logoUrl: brand.logoUrl,
      legalEntity: brand.legalEntity,
    },
    routingType: env.ROUTING_TYPE,
    showPage: env.SHOW_PAGE,
    titleSlug: env.TITLE_SLUG,
    venueSlug: env.VENUE_SLUG,
    trustProxy: env.TRUST_PROXY,
    services: {
      auth: env.AUTH_URL,
      ticketingApi: env.TICKETING_API_URL,
      customerAccounts: env.CUSTOMER_ACCOUNTS_URL,
      manageAccount: env.MANAGE_ACCOUNT_URL,
      session: env.SESSION_URL,
      payment: env.PAYMENT_URL,
      customerProfile: env.CUSTOMER_PROFILE_URL,
    },
    experimentationId: env.EXPERIMENTATION_ID || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    emailFrom: env.EMAIL_FROM,
    /** The site's address as buyers reach it, for links in emails; http://DOMAIN:PORT when unset. */
    publicUrl: (env.PUBLIC_URL ?? `http://${env.DOMAIN}:${env.PORT}`).replace(/\/+$/, ""),
    paymentTimeoutMs: env.PAYMENT_TIMEOUT_SECONDS * 1000,
    /** After this long, a payment still waiting (buyer gone at the bank, server restarted) is settled with the gateway. */
    paymentReconcileAfterMs: env.PAYMENT_RECONCILE_AFTER_SECONDS * 1000,
    /** How often each server looks for such payments. */
    paymentReconcileIntervalMs: env.PAYMENT_RECONCILE_INTERVAL_SECONDS * 1000,
    stripe:
      env.PAYMENT_PROVIDER === "stripe"
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET || undefined,
            mode: env.STRIPE_MODE ?? "direct",
            apiUrl: env.STRIPE_API_URL,
          }
        : null,
    paypal: env.PAYPAL_CLIENT_ID
      ? {
          clientId: env.PAYPAL_CLIENT_ID,
          clientSecret: env.PAYPAL_CLIENT_SECRET,
          environment: env.PAYPAL_ENVIRONMENT ?? "sandbox",
          webhookId: env.PAYPAL_WEBHOOK_ID || undefined,
          apiUrl: env.PAYPAL_API_URL,
        }
      : null,
    /** Signs the gateway's notifications; unset, none is accepted. */
    paymentNotificationSecret: env.PAYMENT_NOTIFICATION_SECRET || undefined,
    metricsToken: env.METRICS_TOKEN || undefined,
    cardTokenisationScriptUrl: env.CARD_TOKENISATION_SCRIPT_URL,
    /**
     * The wallets offered (with script, where the browser has them). None by default: each needs
     * the deployment registered with the wallet's provider, and the browser asks the provider's
     * site, which the content security policy then allows.
     */
    wallets: env.WALLETS,
    experiments: env.EXPERIMENTS,
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

type Env = Record<string, string | undefined>;

const issueText = (issue: z.ZodIssue) => `${issue.path.join(".") || "environment"}: ${issue.message}`;

function parseEnv<T extends z.ZodTypeAny>(schema: T, env: Env): z.output<T> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map(issueText));
  }
  return result.data;
}

/**
 * Reads and validates the environment and the brand file it names; throws a ConfigError naming
 * every bad variable (and every bad field of the brand file) at once, not the first alone.
 */
export function loadConfig(env: Env = process.env): Config {
  const result = envSchema.safeParse(env);
  const brand = readBrand(env);
  const problems = [...(result.success ? [] : result.error.issues.map(issueText)), ...brand.problems];
  if (!result.success || problems.length > 0) throw new ConfigError(problems);
  return toConfig(result.data, brand.brand);
}

/**
 * Only the database's settings, for the operator's commands: a migration or an import run with
 * the site's environment file works, and one run without the site's secrets works too.
 */
export function loadStoreConfig(env: Env = process.env) {
  const parsed = parseEnv(z.object(storeEnv), env);
  return { databaseUrl: parsed.DATABASE_URL || undefined, dataDir: parsed.DATA_DIR };
}
