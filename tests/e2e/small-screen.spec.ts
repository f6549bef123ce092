import { expect, test } from "./fixtures";
import { firstPerformance } from "./seats";

// Issue 40, item 6: the seat map on a phone (375 × 812), with script and without (tagged @smoke,
// so the javascript-off project runs it too: what it proves is CSS and links, which need no
// script). A part of the house is wider than a phone can show with seats a finger can take, so
// each row's name stays in sight as the map scrolls sideways, and the parts-of-the-house links
// above the map jump between them. On the Harbour Playhouse (900 seats: Stalls and Circle).

test.use({ viewport: { width: 375, height: 812 } });

test("@smoke on a phone the seat map keeps the first row's name in sight when scrolled sideways, and its links jump between parts of the house", async ({
  page,
  visit,
  javaScriptEnabled,
}) => {
  const tickets = await firstPerformance(
    page,
    "/shows/a-winters-crossing/harbour-playhouse/calendar",
    javaScriptEnabled,
  );
  await visit(tickets);
  const map = page.getByRole("region", { name: "Seat map" });
  const stalls = page.getByRole("group", { name: "Stalls", exact: true });
  const firstRow = stalls.getByRole("group").first();
  const rowName = firstRow.locator(".seat-map__row-name");
  const firstSeat = firstRow.locator(".s").first();
  const inside = async (locator: typeof rowName) => {
    const [box, frame] = await Promise.all([locator.boundingBox(), map.boundingBox()]);
    return box !== null && frame !== null && box.x >= frame.x && box.x + box.width <= frame.x + frame.width;
  };

  // Seats stay targets a finger can take: 20 px or more, centres 25 px or more apart (WCAG 2.5.8's
  // spacing exception), and the map is wider than the phone.
  const seats = await firstRow
    .locator(".s")
    .evaluateAll((elements) => elements.slice(0, 2).map((element) => element.getBoundingClientRect()));
  expect(seats[0]!.width).toBeGreaterThanOrEqual(20);
  expect(seats[1]!.x - seats[0]!.x).toBeGreaterThanOrEqual(24.5);
  const widths = await map.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
  expect(widths.scroll).toBeGreaterThan(widths.client);

  // Scrolled to the right-hand end: the row's first seat is out of sight, its name is not.
  await map.evaluate((element) => {
    element.scrollLeft = element.scrollWidth;
  });
  await expect.poll(() => inside(firstSeat)).toBe(false);
  await expect(rowName).toHaveText(/^[A-Z]$/);
  await expect.poll(() => inside(rowName)).toBe(true);
  // Drawn on top, not under the seats scrolling past: what is at the name's place is the name.
  await stalls.locator("legend").scrollIntoViewIfNeeded();
  const onTop = await rowName.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const line = parseFloat(getComputedStyle(element).lineHeight);
    return document.elementFromPoint(box.right - 8, box.top + line / 2) === element;
  });
  expect(onTop).toBe(true);
  // Scrolled back to the start: the name is beside its first seat again, left of it.
  await map.evaluate((element) => {
    element.scrollLeft = 0;
  });
  await expect.poll(() => inside(firstSeat)).toBe(true);
  const [name, seat] = await Promise.all([rowName.boundingBox(), firstSeat.boundingBox()]);
  expect(name!.x + name!.width).toBeLessThanOrEqual(seat!.x + 1);
  // Level with it: the name's line (a seat high; its box takes no height) starts where the seat does.
  expect(Math.abs(name!.y - seat!.y)).toBeLessThan(2);

  // The overview: links to each part of the house, in-page anchors that work without script.
  const parts = page.getByRole("navigation", { name: "Parts of the house" });
  await expect(parts.getByRole("link")).toHaveText(["Stalls", "Circle"]);
  await parts.getByRole("link", { name: "Circle" }).click();
  await expect(page).toHaveURL(/#seat-map-/);
  const circle = page.getByRole("group", { name: "Circle", exact: true });
  await expect(circle.getByRole("group").first()).toBeInViewport();
  // With script the map also scrolls sideways to the part's first seat on offer, clear of the names.
  if (javaScriptEnabled) {
    const seat = circle.locator('input[name="seat"]:enabled').first();
    await expect.poll(() => inside(seat)).toBe(true);
    const [column, box] = await Promise.all([
      circle.locator(".seat-map__row-name").first().boundingBox(),
      seat.boundingBox(),
    ]);
    expect(box!.x).toBeGreaterThanOrEqual(column!.x + column!.width - 1);
  }
});
