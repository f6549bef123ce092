import type { HtmlDriver } from "./html-driver";

// Finding one's way around the demo catalogue as a buyer does, by what the pages show: shared by
// the journeys (under vitest) and the container smoke test's buyer (plain node), so nothing here
// needs a test runner.

export const pathOf = (buyer: HtmlDriver) => new URL(buyer.url).pathname;

/**
 * Opens a show's calendar and follows the `skip`-th date on general sale with good availability
 * (the demo sells some performances out, or nearly, on purpose), looking on a month or two if
 * this one has too few. Ends on that performance's tickets page.
 */
export async function goodPerformance(buyer: HtmlDriver, calendar: string, skip = 0) {
  await buyer.open(calendar);
  for (let month = 0; month < 4; month += 1) {
    const links = [...buyer.document.querySelectorAll<HTMLAnchorElement>('a[href*="/tickets/"]')].filter(
      (link) => /Good availability/.test(link.textContent ?? "") && !/Presale/.test(link.textContent ?? ""),
    );
    if (links.length > skip) {
      await buyer.open(links[skip]!.getAttribute("href")!);
      if (buyer.status !== 200) throw new Error(`${buyer.url} answered ${buyer.status}, not 200`);
      return pathOf(buyer);
    }
    await buyer.follow(/^Next/);
  }
  throw new Error(`no ${skip + 1} performances with good availability in four months of ${calendar}`);
}
