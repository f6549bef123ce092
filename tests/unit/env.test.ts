import { describe, expect, it } from "vitest";
import { configProblems } from "../support/config";
import { ConfigError, loadConfig, loadStoreConfig } from "~/config/env.server";

const problems = configProblems;

describe("runtime configuration", () => {
  it("needs nothing set: every variable has a default", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      // Unset: server.ts decides (tests/unit/cores.test.ts).
      webConcurrency: undefined,
      appEnv: "development",
      production: false,
      language: "en-GB",
      theme: "default",
      routingType: "DEFAULT",
      databaseUrl: undefined,
      experiments: [],
      wallets: [],
    });
    // Development's own secret is made in its data folder when the services start
    // (tests/unit/development-secret.test.ts): none is written in the source.
    expect(config.sessionSecrets).toEqual([]);
    expect(loadConfig({ WALLETS: " googlePay , applePay" }).wallets).toEqual(["googlePay", "applePay"]);
    expect(loadConfig({ WEB_CONCURRENCY: "3" }).webConcurrency).toBe(3);
  });

  it("loads the demo catalogue by default only outside staging and production, where it must be asked for", () => {
    expect(loadConfig({}).demoCatalogue).toBe("auto");
    expect(loadConfig({ APP_ENV: "test", SESSION_SECRET: "s".repeat(40) }).demoCatalogue).toBe("auto");
    const secret = { SESSION_SECRET: "s".repeat(40), PAYMENT_PROVIDER: "sandbox", SANDBOX_IN_PRODUCTION: "yes" };
    expect(loadConfig({ APP_ENV: "production", ...secret }).demoCatalogue).toBe("off");
    expect(loadConfig({ APP_ENV: "staging", ...secret }).demoCatalogue).toBe("off");
    expect(loadConfig({ APP_ENV: "production", DEMO_CATALOGUE: "auto", ...secret }).demoCatalogue).toBe("auto");
    expect(loadConfig({ DEMO_CATALOGUE: "off" }).demoCatalogue).toBe("off");
  });

  it("lets the operator's commands reach the database without the site's secrets, and checks what they need", () => {
    expect(loadStoreConfig({ APP_ENV: "production", DATABASE_URL: "postgres://db/box" })).toEqual({
      databaseUrl: "postgres://db/box",
      dataDir: "data",
    });
    expect(() => loadConfig({ APP_ENV: "production" })).toThrow(ConfigError);
    expect(() => loadStoreConfig({ DATABASE_URL: "mysql://db" })).toThrow(/DATABASE_URL: must be empty/);
  });

  it.each([
    [{ PORT: "eighty" }, "PORT"],
    [{ PORT: "70000" }, "PORT"],
    [{ WEB_CONCURRENCY: "0" }, "WEB_CONCURRENCY"],
    [{ WEB_CONCURRENCY: "two" }, "WEB_CONCURRENCY"],
    [{ WEB_CONCURRENCY: "1.5" }, "WEB_CONCURRENCY"],
    [{ WEB_CONCURRENCY: "65" }, "WEB_CONCURRENCY"],
    [{ THEME: "neon" }, "THEME"],
    [{ LANGUAGE: "fr-FR" }, "LANGUAGE"],
    [{ ROUTING_TYPE: "MULTI" }, "ROUTING_TYPE"],
    [{ APP_ENV: "prod" }, "APP_ENV"],
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ PAYMENT_URL: "not a url" }, "PAYMENT_URL"],
    [{ VENUE_SLUG: "no spaces allowed" }, "VENUE_SLUG"],
    [{ EXPERIMENTS: "{" }, "EXPERIMENTS"],
    [{ EXPERIMENTS: '[{"id":"a","variations":[]}]' }, "EXPERIMENTS"],
    [{ SESSION_SECRET: "short" }, "SESSION_SECRET"],
    [{ TRUST_PROXY: "yes please" }, "TRUST_PROXY"],
    [{ TRUST_PROXY: "true" }, "TRUST_PROXY"],
    [{ TRUST_PROXY: "10.0.0.0/33" }, "TRUST_PROXY"],
    [{ TRUST_PROXY: "loopback, 10.0.0" }, "TRUST_PROXY"],
    [{ TRUST_PROXY: "-1" }, "TRUST_PROXY"],
    [{ WALLETS: "googlePay,bitcoin" }, "WALLETS"],
    [{ PAYMENT_RECONCILE_AFTER_SECONDS: "soon" }, "PAYMENT_RECONCILE_AFTER_SECONDS"],
    [{ PAYMENT_RECONCILE_AFTER_SECONDS: "0" }, "PAYMENT_RECONCILE_AFTER_SECONDS"],
    [{ PAYMENT_RECONCILE_INTERVAL_SECONDS: "0" }, "PAYMENT_RECONCILE_INTERVAL_SECONDS"],
    [{ PAYMENT_RECONCILE_INTERVAL_SECONDS: "7200" }, "PAYMENT_RECONCILE_INTERVAL_SECONDS"],
  ])("a bad value (%j) stops start-up with a message naming %s", (env, variable) => {
    const found = problems(env);
    expect(found.length).toBeGreaterThan(0);
    expect(found.join("\n")).toMatch(new RegExp(`^${variable}`, "m"));
  });

  it("settles payments left waiting after five minutes, looking every minute; both can be set", () => {
    expect(loadConfig({})).toMatchObject({
      paymentTimeoutMs: 30_000,
      paymentReconcileAfterMs: 300_000,
      paymentReconcileIntervalMs: 60_000,
    });
    expect(
      loadConfig({
        PAYMENT_TIMEOUT_SECONDS: "1",
        PAYMENT_RECONCILE_AFTER_SECONDS: "2",
        PAYMENT_RECONCILE_INTERVAL_SECONDS: "5",
      }),
    ).toMatchObject({ paymentReconcileAfterMs: 2000, paymentReconcileIntervalMs: 5000 });
  });

  it("the reconciler's deadline must come after the payment timeout", () => {
    expect(problems({ PAYMENT_TIMEOUT_SECONDS: "60", PAYMENT_RECONCILE_AFTER_SECONDS: "60" })).toEqual([
      "PAYMENT_RECONCILE_AFTER_SECONDS: must be longer than PAYMENT_TIMEOUT_SECONDS",
    ]);
  });

  // Issue 53: staging signed every cookie with a secret written in the source, so anyone who had
  // read it could forge them. Only development makes its own, random per data folder.
  it.each(["test", "staging", "production"])("%s refuses to start without SESSION_SECRET, naming it", (appEnv) => {
    expect(problems({ APP_ENV: appEnv, PAYMENT_PROVIDER: "sandbox", SANDBOX_IN_PRODUCTION: "yes" })).toEqual([
      `SESSION_SECRET: is required when APP_ENV is ${appEnv}`,
    ]);
    expect(
      problems({ APP_ENV: appEnv, SESSION_SECRET: " , ", PAYMENT_PROVIDER: "sandbox", SANDBOX_IN_PRODUCTION: "yes" }),
    ).toEqual([`SESSION_SECRET: is required when APP_ENV is ${appEnv}`]);
  });

  // Issue 53: a hop count or the proxies' addresses, as Express takes them; never "believe anyone".
  it("TRUST_PROXY takes a number of proxies or their addresses, and refuses true, saying what to give instead", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "false" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "0" }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: " 2 " }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: "loopback, 10.0.0.0/8,172.18.0.5, fd00::/8, uniquelocal" }).trustProxy).toEqual([
      "loopback",
      "10.0.0.0/8",
      "172.18.0.5",
      "fd00::/8",
      "uniquelocal",
    ]);
    expect(problems({ TRUST_PROXY: "true" })).toEqual([
      "TRUST_PROXY: true would believe the left-most X-Forwarded-For address, which the client writes: give the number of proxies in front (1 for one nginx) or their addresses (such as 10.0.0.2, 172.16.0.0/12 or loopback)",
    ]);
  });

  // Staging rehearses production with the providers' test accounts: what they need, it needs too.
  it("staging with Stripe needs the webhook's secret and the public address, as production does", () => {
    const staging = {
      APP_ENV: "staging",
      SESSION_SECRET: "s".repeat(40),
      PAYMENT_PROVIDER: "stripe",
      STRIPE_SECRET_KEY: "sk_test_abc123",
      STRIPE_MODE: "direct",
    };
    expect(problems(staging).sort()).toEqual([
      "PUBLIC_URL: is required when APP_ENV is staging and a real payment provider sends buyers back",
      "STRIPE_WEBHOOK_SECRET: is required when APP_ENV is staging: the signing secret of the webhook endpoint /payments/notifications",
    ]);
    expect(problems({ ...staging, APP_ENV: "test" })).toEqual([]);
  });

  // Issue 39: a production site never takes "payments" that are no money because nobody chose.
  it("production refuses to start without a payment provider named, and the sandbox unless said so", () => {
    const secret = { APP_ENV: "production", SESSION_SECRET: "s".repeat(40) };
    expect(problems(secret)).toEqual([
      "PAYMENT_PROVIDER: is required when APP_ENV is production: stripe, or sandbox (which takes no real money)",
    ]);
    expect(problems({ ...secret, PAYMENT_PROVIDER: "sandbox" })).toEqual([
      "PAYMENT_PROVIDER: sandbox takes no real money: set SANDBOX_IN_PRODUCTION=yes to run it in production anyway",
    ]);
    expect(problems({ ...secret, PAYMENT_PROVIDER: "adyen" })).toEqual([expect.stringMatching(/^PAYMENT_PROVIDER: /)]);
    expect(loadConfig({ ...secret, PAYMENT_PROVIDER: "sandbox", SANDBOX_IN_PRODUCTION: "yes" }).paymentProvider).toBe(
      "sandbox",
    );
    // Staging, development and test take the sandbox unless told otherwise.
    expect(loadConfig({ APP_ENV: "staging", SESSION_SECRET: "s".repeat(40) }).paymentProvider).toBe("sandbox");
    expect(loadConfig({}).paymentProvider).toBe("sandbox");
  });

  it("Stripe needs its key, a chosen card entry, and in production its webhook secret and the public address", () => {
    const production = { APP_ENV: "production", SESSION_SECRET: "s".repeat(40), PAYMENT_PROVIDER: "stripe" };
    expect(problems(production).sort()).toEqual([
      "PUBLIC_URL: is required when APP_ENV is production and a real payment provider sends buyers back",
      "STRIPE_MODE: is required when PAYMENT_PROVIDER is stripe: direct (cards on our page, PCI DSS SAQ D) or hosted (Stripe Checkout, SAQ A)",
      "STRIPE_SECRET_KEY: is required when PAYMENT_PROVIDER is stripe",
      "STRIPE_WEBHOOK_SECRET: is required when APP_ENV is production: the signing secret of the webhook endpoint /payments/notifications",
    ]);
    expect(problems({ PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "pk_test_abc", STRIPE_MODE: "direct" })).toEqual([
      "STRIPE_SECRET_KEY: must be a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_…)",
    ]);
    const config = loadConfig({
      ...production,
      STRIPE_SECRET_KEY: "sk_live_abc123",
      STRIPE_MODE: "hosted",
      STRIPE_WEBHOOK_SECRET: "whsec_abc",
      PUBLIC_URL: "https://tickets.example.com/",
    });
    expect(config.stripe).toEqual({
      secretKey: "sk_live_abc123",
      webhookSecret: "whsec_abc",
      mode: "hosted",
      apiUrl: undefined,
    });
    expect(config.publicUrl).toBe("https://tickets.example.com");
    expect(config.paypal).toBeNull();
  });

  it("PayPal beside the card provider needs its secret with its id, and which of PayPal's environments", () => {
    expect(problems({ PAYPAL_CLIENT_ID: "id" }).sort()).toEqual([
      "PAYPAL_CLIENT_SECRET: PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET go together",
      "PAYPAL_ENVIRONMENT: is required with PAYPAL_CLIENT_ID: sandbox or live",
    ]);
    expect(problems({ PAYPAL_CLIENT_SECRET: "secret" })).toEqual([
      "PAYPAL_CLIENT_ID: PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET go together",
    ]);
    expect(
      loadConfig({ PAYPAL_CLIENT_ID: "id", PAYPAL_CLIENT_SECRET: "secret", PAYPAL_ENVIRONMENT: "live" }).paypal,
    ).toEqual({ clientId: "id", clientSecret: "secret", environment: "live", webhookId: undefined, apiUrl: undefined });
  });

  it("the single modes need the show and venue they serve", () => {
    expect(problems({ ROUTING_TYPE: "SINGLE_SHOW" }).sort()).toEqual([
      "TITLE_SLUG: is required when ROUTING_TYPE is SINGLE_SHOW",
      "VENUE_SLUG: is required when ROUTING_TYPE is SINGLE_SHOW",
    ]);
    expect(problems({ ROUTING_TYPE: "SINGLE_VENUE" })).toEqual([
      "VENUE_SLUG: is required when ROUTING_TYPE is SINGLE_VENUE",
    ]);
    expect(loadConfig({ ROUTING_TYPE: "SINGLE_VENUE", VENUE_SLUG: "regent-palace" }).routingType).toBe("SINGLE_VENUE");
  });

  it("SESSION_SECRET takes several secrets, newest first, for rotation", () => {
    const config = loadConfig({ SESSION_SECRET: `${"n".repeat(32)}, ${"o".repeat(32)}` });
    expect(config.sessionSecrets).toEqual(["n".repeat(32), "o".repeat(32)]);
  });

  it("reads experiments and service addresses", () => {
    const config = loadConfig({
      EXPERIMENTS: '[{"id":"summary","variations":[{"id":"control","weight":1},{"id":"top","weight":1}]}]',
      PAYMENT_URL: "https://payments.example.test/v1",
    });
    expect(config.experiments[0]?.variations.map((variation) => variation.id)).toEqual(["control", "top"]);
    expect(config.services.payment).toBe("https://payments.example.test/v1");
    expect(config.services.auth).toBeUndefined();
  });
});
