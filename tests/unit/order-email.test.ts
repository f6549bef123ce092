import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative } from "node:path";
import { Writable } from "node:stream";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fixedClock } from "~/clock";
import { renderOrderConfirmation, type OrderEmailView } from "~/use-cases/email/order-email";
import { createMailTransport } from "~/use-cases/email/outbox.server";
import { createLogger } from "~/logging/logger.server";
import { translator } from "../support/translate";

// The confirmation email is the buyer's receipt and, for e-tickets, their way in: it must carry the
// order, the seats, the money and the link, in the buyer's language, with nothing a buyer typed
// able to become markup; and it must really leave, by SMTP or into the outbox folder.

const VIEW: OrderEmailView = {
  orderNumber: "BO-48213",
  customerName: "Jo Bloggs",
  email: "jo@example.com",
  showName: "Hamlet",
  venueName: "Aldwych Grand",
  when: "Saturday 5 December 2026, 19:30",
  tickets: ["Stalls, row F, seat 12", "Stalls, row F, seat 13"],
  delivery: "E-ticket",
  access: "",
  accessNotes: "",
  lines: [
    { label: "Full Price – Stalls, row F, seat 12", amount: "£45.00" },
    { label: "Full Price – Stalls, row F, seat 13", amount: "£45.00" },
    { label: "Transaction fee", amount: "£2.50" },
  ],
  total: "£92.50",
  paid: "£92.50",
  eTicketsUrl: "https://tickets.example.com/e-tickets/K3Y-S3CR3T",
  visit: null,
  supportPhone: "020 7946 0000",
};

const VISIT: NonNullable<OrderEmailView["visit"]> = {
  lines: ["12 Aldwych", "London WC2B 4DF"],
  mapUrl: "https://www.openstreetmap.org/search?query=Aldwych%20Grand%2C%2012%20Aldwych%2C%20London%20WC2B%204DF",
  travel: "Nearest station: Holborn & Temple.\n\nNo parking <at all>.",
  calendarUrl: "https://tickets.example.com/e-tickets/K3Y-S3CR3T/calendar.ics",
};

/** Undoes quoted-printable, which nodemailer uses for long lines, so the test reads what the buyer reads. */
function decodeQuotedPrintable(raw: string): string {
  const bytes = raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** A logger whose lines the test can read. */
function capturingLogger() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(chunk.toString("utf8"));
      callback();
    },
  });
  return { logger: createLogger("info", destination), lines };
}

describe("rendering the order confirmation", () => {
  const gb = translator("en-GB");
  const us = translator("en-US");

  it("has a subject naming the show and the order", () => {
    expect(renderOrderConfirmation(VIEW, gb).subject).toBe("Your tickets for Hamlet: order BO-48213");
  });

  it("the text carries the order number, every seat, the money and the e-tickets link", () => {
    const { text } = renderOrderConfirmation(VIEW, gb);
    expect(text).toContain("Dear Jo Bloggs,");
    expect(text).toContain("Order number: BO-48213");
    expect(text).toContain("Hamlet");
    expect(text).toContain("Aldwych Grand");
    expect(text).toContain("Saturday 5 December 2026, 19:30");
    expect(text).toContain("- Stalls, row F, seat 12\n- Stalls, row F, seat 13");
    expect(text).toContain("Transaction fee: £2.50");
    expect(text).toContain("Total: £92.50");
    expect(text).toContain("Paid: £92.50");
    expect(text).toContain("\nhttps://tickets.example.com/e-tickets/K3Y-S3CR3T\n");
    expect(text).toContain("020 7946 0000");
    // A key without a translation comes back as the key itself.
    expect(text).not.toMatch(/\bemail\.[a-zA-Z]+/);
  });

  it("the HTML carries the same, with the link as a link and the prices in a table with headers", () => {
    const { html } = renderOrderConfirmation(VIEW, gb);
    expect(html).toContain('<a href="https://tickets.example.com/e-tickets/K3Y-S3CR3T"');
    expect(html).toContain(">View and print your e-tickets</a>");
    expect(html).toContain("<li>Stalls, row F, seat 12</li>");
    expect(html).toMatch(/<th scope="col"[^>]*>Item<\/th>/);
    expect(html).toMatch(/<th scope="row"[^>]*>Total<\/th><td[^>]*>£92.50<\/td>/);
    expect(html).toMatch(/<h1[^>]*>Your booking is confirmed<\/h1>/);
    expect(html).not.toMatch(/\bemail\.[a-zA-Z]+/);
    // Mail clients drop style sheets: every style is inline.
    expect(html).not.toMatch(/<style|<link/);
  });

  it("escapes everything a buyer or the catalogue supplied", () => {
    const view: OrderEmailView = {
      ...VIEW,
      customerName: '<script>alert("x")</script>',
      showName: "Rock & Roll <Live>",
      tickets: ['Stalls, row "F", seat 12 <b>'],
      lines: [{ label: "Promo code <img src=x onerror=alert(1)>", amount: "-£5.00" }],
    };
    const { html, text } = renderOrderConfirmation(view, gb);
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("Rock &amp; Roll &lt;Live&gt;");
    expect(html).toContain("Stalls, row &quot;F&quot;, seat 12 &lt;b&gt;");
    // The plain text is not HTML: it shows what was typed, unescaped.
    expect(text).toContain('Dear <script>alert("x")</script>,');
  });

  it("keeps the subject on one line and links only to web addresses", () => {
    const sneaky = renderOrderConfirmation(
      { ...VIEW, showName: "Hamlet\r\nBcc: victim@example.com", eTicketsUrl: "javascript:alert(1)" },
      gb,
    );
    expect(sneaky.subject).not.toMatch(/[\r\n]/);
    expect(sneaky.html).not.toContain("javascript:");
    expect(sneaky.text).not.toContain("javascript:");
  });

  it("repeats the performance's access services and their notes (issue 43), and leaves them out without any", () => {
    const view = {
      ...VIEW,
      access: "Audio described, Touch tour",
      accessNotes: "Touch tour at 12:30 & <headsets> from the foyer desk.",
    };
    for (const t of [gb, us]) {
      const { text, html } = renderOrderConfirmation(view, t);
      expect(text).toContain("Access: Audio described, Touch tour\n");
      expect(text).toContain("Access notes: Touch tour at 12:30 & <headsets> from the foyer desk.\n");
      expect(html).toMatch(/<th scope="row"[^>]*>Access<\/th><td[^>]*>Audio described, Touch tour<\/td>/);
      expect(html).toContain(">Touch tour at 12:30 &amp; &lt;headsets&gt; from the foyer desk.</td>");
    }
    const { text, html } = renderOrderConfirmation(VIEW, gb);
    expect(text).not.toContain("Access");
    expect(html).not.toContain("Access");
  });

  it("leaves out the e-tickets paragraph when the tickets are not e-tickets", () => {
    const { text, html } = renderOrderConfirmation({ ...VIEW, eTicketsUrl: null, delivery: "Post" }, gb);
    expect(text).not.toContain("e-tickets");
    expect(html).not.toContain("<a ");
    expect(text).toContain("Delivery: Post");
  });

  it("says where the venue is, links its map and the calendar entry, and gives the way there (issue 56)", () => {
    for (const t of [gb, us]) {
      const { text, html } = renderOrderConfirmation({ ...VIEW, visit: VISIT }, t);
      expect(text).toContain("Getting there:\nAddress: Aldwych Grand, 12 Aldwych, London WC2B 4DF\n");
      expect(text).toContain(`Map: ${VISIT.mapUrl}\n`);
      expect(text).toContain("\nNearest station: Holborn & Temple.\n\nNo parking <at all>.\n");
      expect(text).toContain(`\n${VISIT.calendarUrl}\n`);
      expect(html).toMatch(/<h2[^>]*>Getting there<\/h2>/);
      expect(html).toContain(">Aldwych Grand<br>12 Aldwych<br>London WC2B 4DF</p>");
      expect(html).toContain(`<a href="${VISIT.mapUrl}"`);
      expect(html).toContain(">Aldwych Grand on a map (OpenStreetMap)</a>");
      expect(html).toContain(">Nearest station: Holborn &amp; Temple.</p>");
      expect(html).toContain(">No parking &lt;at all&gt;.</p>");
      expect(html).toContain(`<a href="${VISIT.calendarUrl}"`);
      expect(html).toContain(">Add Hamlet to your calendar (.ics file)</a>");
      expect(`${text}${html}`).not.toMatch(/\borderVisit\./);
    }
    // Without e-tickets there is no calendar link; only web addresses become links.
    const posted = renderOrderConfirmation(
      { ...VIEW, eTicketsUrl: null, visit: { ...VISIT, calendarUrl: null, mapUrl: "javascript:alert(1)" } },
      gb,
    );
    expect(posted.text).toContain("Address: Aldwych Grand, 12 Aldwych, London WC2B 4DF");
    expect(`${posted.text}${posted.html}`).not.toMatch(/calendar\.ics|javascript:/);
  });

  it("words the US email the American way", () => {
    const british = renderOrderConfirmation(VIEW, gb).text;
    const american = renderOrderConfirmation({ ...VIEW, supportPhone: "(212) 555-0100" }, us).text;
    expect(british).toContain("Call the box office on 020 7946 0000");
    expect(american).toContain("Call the box office at (212) 555-0100");
    expect(american).toContain("Hi Jo Bloggs,");
    expect(american).toContain("Amount paid: £92.50");
    expect(renderOrderConfirmation(VIEW, us).html).toMatch(/<h1[^>]*>Your order is confirmed<\/h1>/);
  });
});

describe("sending through a real SMTP server", () => {
  let smtp: SMTPServer;
  let port: number;
  const received: { from: string; to: string[]; raw: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      onRcptTo(address, _session, callback) {
        // A mailbox the server refuses, as a real one refuses an unknown user.
        if (address.address.startsWith("nobody@")) callback(new Error("550 5.1.1 <nobody@example.com>: no such user"));
        else callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            raw: Buffer.concat(chunks).toString("utf8"),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it("delivers the message with its subject, text and HTML", async () => {
    const transport = createMailTransport({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir: join(tmpdir(), "unused-outbox"),
      logger: createLogger("silent"),
    });
    const email = renderOrderConfirmation(VIEW, translator("en-GB"));
    await transport.send({ from: "Box Office <tickets@example.com>", to: "jo@example.com", ...email });

    expect(received).toHaveLength(1);
    const [message] = received;
    expect(message!.from).toBe("tickets@example.com");
    expect(message!.to).toEqual(["jo@example.com"]);
    expect(message!.raw).toMatch(/^Subject: Your tickets for Hamlet: order BO-48213\r$/m);
    expect(message!.raw).toMatch(/^Content-Type: multipart\/alternative/m);
    const body = decodeQuotedPrintable(message!.raw);
    expect(body).toContain("Order number: BO-48213");
    expect(body).toContain("Stalls, row F, seat 12");
    expect(body).toContain("https://tickets.example.com/e-tickets/K3Y-S3CR3T");
    expect(body).toContain('<a href="https://tickets.example.com/e-tickets/K3Y-S3CR3T"');
  });

  it("rejects when the server refuses the message, so the outbox can try again", async () => {
    const transport = createMailTransport({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir: join(tmpdir(), "unused-outbox"),
      logger: createLogger("silent"),
    });
    await expect(
      transport.send({
        from: "tickets@example.com",
        to: "nobody@example.com",
        subject: "s",
        text: "t",
        html: "<p>t</p>",
      }),
    ).rejects.toThrow(/no such user/);
  });

  it("never shows the SMTP credentials when describing itself", () => {
    const transport = createMailTransport({
      smtpUrl: "smtps://mailer:hunter2@smtp.example.com:465",
      outboxDir: join(tmpdir(), "unused-outbox"),
      logger: createLogger("silent"),
    });
    expect(transport.describe()).toBe("smtps://smtp.example.com:465");
  });

  it("rejects, rather than waits forever, when nothing answers", async () => {
    // A port that was just free: connecting is refused at once.
    const probe = new SMTPServer({ authOptional: true, logger: false });
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const closedPort = (probe.server.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const transport = createMailTransport({
      smtpUrl: `smtp://127.0.0.1:${closedPort}`,
      outboxDir: join(tmpdir(), "unused-outbox"),
      logger: createLogger("silent"),
    });
    await expect(
      transport.send({ from: "tickets@example.com", to: "jo@example.com", subject: "s", text: "t", html: "<p>t</p>" }),
    ).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe("writing emails to the outbox folder when there is no SMTP server", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("writes each message as an .eml file, named in time order, and says where once", async () => {
    const parent = mkdtempSync(join(tmpdir(), "box-office-outbox-"));
    dirs.push(parent);
    const outboxDir = join(parent, "not", "there", "yet");
    const clock = fixedClock("2026-11-23T12:00:00.000Z");
    const { logger, lines } = capturingLogger();
    const transport = createMailTransport({ outboxDir, logger, clock });

    const email = renderOrderConfirmation(VIEW, translator("en-GB"));
    await transport.send({ from: "Box Office <tickets@example.com>", to: "jo@example.com", ...email });
    clock.advance(1);
    await transport.send({
      from: "tickets@example.com",
      to: "sam@example.com",
      subject: "Second",
      text: "2",
      html: "<p>2</p>",
    });

    const files = readdirSync(outboxDir);
    expect(files).toHaveLength(2);
    expect(files.every((name) => /^2026-11-23T12-00-00-00[01]Z-[0-9a-f]{8}\.eml$/.test(name))).toBe(true);
    const [first, second] = files.sort();
    const raw = readFileSync(join(outboxDir, first!), "utf8");
    expect(raw).toMatch(/^Subject: Your tickets for Hamlet: order BO-48213\r$/m);
    expect(raw).toMatch(/^To: jo@example.com\r$/m);
    expect(decodeQuotedPrintable(raw)).toContain("Order number: BO-48213");
    expect(readFileSync(join(outboxDir, second!), "utf8")).toMatch(/^Subject: Second\r$/m);

    const announcements = lines.filter((line) => line.includes("emails are written to"));
    expect(announcements).toHaveLength(1);
    expect(JSON.parse(announcements[0]!)).toMatchObject({ level: "info", msg: `emails are written to ${outboxDir}` });
    expect(transport.describe()).toBe(`files in ${outboxDir}`);
  });

  it("names the folder by its absolute path, however it was configured", () => {
    const parent = mkdtempSync(join(tmpdir(), "box-office-outbox-"));
    dirs.push(parent);
    const { logger, lines } = capturingLogger();
    const configured = relative(process.cwd(), join(parent, "outbox"));
    expect(isAbsolute(configured)).toBe(false);
    createMailTransport({ outboxDir: configured, logger });
    const logged = JSON.parse(lines[0]!) as { msg: string };
    expect(logged.msg).toBe(`emails are written to ${join(parent, "outbox")}`);
  });
});
