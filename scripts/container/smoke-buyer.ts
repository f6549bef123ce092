// The container smoke test's buyer (scripts/container-smoke.sh): a browser without script buying
// through one origin that spreads its requests over the site's replicas, so consecutive steps of
// one purchase land on different servers. It holds two seats by best available, checks that a
// second buyer is not offered them on either replica, pays with the 3-D Secure test card, and
// prints the order number. Every page passes the driver's checks (axe, labels, no NUL bytes).
//
//   node --import tsx scripts/container/smoke-buyer.ts http://127.0.0.1:8080
import { goodPerformance, pathOf } from "../../tests/support/demo-pages";
import { htmlDriver, type HtmlDriver } from "../../tests/support/html-driver";

const origin = process.argv[2];
if (!origin) {
  console.error("Usage: smoke-buyer.ts ORIGIN");
  process.exit(2);
}
const CALENDAR = "/shows/the-tide-tables/harbour-playhouse/calendar";

function expectPath(buyer: HtmlDriver, path: string) {
  if (pathOf(buyer) !== path || buyer.status !== 200) {
    throw new Error(`expected ${path}, got ${buyer.status} ${buyer.url}: ${buyer.text().slice(0, 300)}`);
  }
}

/** The seats of the basket ("Your tickets"): "Stalls, row F, seat 12". */
function heldSeats(buyer: HtmlDriver) {
  const table = [...buyer.document.querySelectorAll("table")].find((candidate) =>
    /Your tickets/.test(candidate.querySelector("caption")?.textContent ?? candidate.getAttribute("aria-label") ?? ""),
  );
  return [...(table?.querySelectorAll("tbody tr") ?? [])].map((row) => {
    const first = (row.firstElementChild?.textContent ?? "").replace(/\s+/g, " ");
    return /[^,]+, row [^,]+, seat [A-Z0-9]+/.exec(first)?.[0].trim() ?? first;
  });
}

/** Whether the tickets page offers the seat as a box a buyer could tick. */
function offered(buyer: HtmlDriver, seat: string) {
  const label = [...buyer.document.querySelectorAll<HTMLLabelElement>(".seat-map__plan label")].find((candidate) =>
    (candidate.textContent ?? "").startsWith(`${seat},`),
  );
  const box = label?.control as HTMLInputElement | null | undefined;
  return Boolean(box && !box.disabled);
}

const buyer = htmlDriver(origin, { language: "en-GB" });
const tickets = await goodPerformance(buyer, CALENDAR);
buyer.select("Number of seats", "2");
await buyer.press("Find seats");
expectPath(buyer, "/checkout/reservations");
const seats = heldSeats(buyer);
if (seats.length !== 2) throw new Error(`best available held ${JSON.stringify(seats)}, not two seats`);
if (buyer.text().includes("I have read this notice")) buyer.check("I have read this notice");
await buyer.press("Accept these seats");
expectPath(buyer, "/checkout/extras");
console.log(`held ${seats.join(" and ")} on ${tickets}`);

// Two visits in a row: one from each replica behind the proxy.
const other = htmlDriver(origin, { language: "en-GB" });
for (let visit = 1; visit <= 2; visit += 1) {
  await other.open(tickets);
  const free = seats.filter((seat) => offered(other, seat));
  if (free.length) throw new Error(`visit ${visit}: another buyer is offered held seats ${free.join(", ")}`);
}
console.log("another buyer, on either replica, is not offered them");

await buyer.press("Continue");
expectPath(buyer, "/checkout/ticket-protection");
buyer.choose("No, I accept that my tickets are non-refundable");
await buyer.press("Continue");
expectPath(buyer, "/checkout/collection");
buyer.choose(/^E-ticket/);
await buyer.press("Continue");
expectPath(buyer, "/checkout/contacts");
buyer
  .fill("First name", "Jo")
  .fill("Last name", "Smoke")
  .fill("Email address", "smoke@example.com")
  .fill("Confirm email address", "smoke@example.com")
  .fill("Phone number", "020 7946 0000")
  .check("I accept the Terms and Conditions");
await buyer.press("Continue");
expectPath(buyer, "/checkout/payment");
buyer
  .choose("Credit or debit card")
  .fill("Card number", "4000 0000 0000 3220")
  .fill("Name on card", "Jo Smoke")
  .fill("Expiry date", "12/30")
  .fill("Security code (CVV)", "123");
await buyer.press(/^Pay /);
expectPath(buyer, "/checkout/verify");
await buyer.press("Continue");
await buyer.press("Continue");
await buyer.press("Complete authentication");
expectPath(buyer, "/checkout/confirmation");
const term = [...buyer.document.querySelectorAll("dt")].find((dt) => dt.textContent?.trim() === "Order number");
const order = term?.nextElementSibling?.textContent?.trim() ?? "";
if (!order) throw new Error("the confirmation shows no order number");
for (const seat of seats) if (!buyer.text().includes(seat)) throw new Error(`the confirmation lacks ${seat}`);
console.log(`paid with 3-D Secure across replicas: order ${order}`);
