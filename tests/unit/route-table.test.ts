import { describe, expect, it } from "vitest";
import { CHECKOUT_STEPS, STAFF_FRAME, isStaffRoute, modeOfRouteId, mountRoutes } from "~/urls/route-table.js";

interface Mounted {
  path: string | undefined;
  file: string;
  id: string;
  index?: boolean;
  parent?: string;
}

function mounted(): Mounted[] {
  const routes: Mounted[] = [];
  const parents: string[] = [];
  mountRoutes((path, file, options, children) => {
    routes.push({ path, file, id: options!.id!, index: options?.index, parent: parents.at(-1) });
    if (children) {
      parents.push(options!.id!);
      children();
      parents.pop();
    }
  });
  return routes;
}

describe("the route table", () => {
  it("mounts the same modules at every mode's URL patterns", () => {
    const byFile = (file: string) =>
      mounted()
        .filter((route) => route.file === file)
        .map((route) => `${route.id} ${route.index ? "(index)" : route.path}`);
    expect(byFile("routes/calendar.tsx")).toEqual([
      "DEFAULT/calendar shows/:titleSlug/:venueSlug/calendar/:date?",
      "MULTI_VENUE/calendar events/:titleSlug/:venueSlug/calendar/:date?",
      "SINGLE_VENUE/calendar events/:titleSlug/calendar/:date?",
      "SINGLE_SHOW/calendar calendar/:date?",
    ]);
    expect(byFile("routes/show.tsx")).toContain("SINGLE_SHOW/show (index)");
    expect(byFile("routes/venue.tsx")).toEqual(["DEFAULT/venue venues/:venueSlug"]);
  });

  it("puts every checkout step under one checkout layout", () => {
    const steps = mounted().filter((route) => route.parent === "checkout");
    expect(steps.map((route) => route.path)).toEqual([...CHECKOUT_STEPS, "hold"]);
    expect(CHECKOUT_STEPS).toEqual(
      expect.arrayContaining([
        "extras",
        "ticket-protection",
        "collection",
        "contacts",
        "payment",
        "verify",
        "confirmation",
        "failed",
        "reservations",
      ]),
    );
  });

  it("puts every staff page, and only those, in the staff's frame, whose layout has no path of its own", () => {
    const routes = mounted();
    const frame = routes.find((route) => route.id === STAFF_FRAME.name);
    expect(frame).toMatchObject({ path: undefined, index: undefined, parent: undefined });
    const staffPaths = routes.filter((route) => route.path === "staff" || route.path?.startsWith("staff/"));
    expect(staffPaths.map((route) => route.id)).toEqual(
      expect.arrayContaining(["staff", "staff/sign-in", "staff/sign-out", "staff/door"]),
    );
    expect(staffPaths.filter((route) => route.parent !== STAFF_FRAME.name)).toEqual([]);
    expect(routes.filter((route) => route.parent === STAFF_FRAME.name)).toEqual(staffPaths);
    // By path, not by a list: a staff page added to the table is in the frame without saying so.
    expect(isStaffRoute({ name: "staff/orders", path: "staff/orders", file: "x" })).toBe(true);
    expect(isStaffRoute({ name: "staffing", path: "staffing", file: "x" })).toBe(false);
  });

  it("route ids are unique and name their mode", () => {
    const ids = mounted().map((route) => route.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(modeOfRouteId("SINGLE_SHOW/tickets")).toBe("SINGLE_SHOW");
    expect(modeOfRouteId("checkout/payment")).toBeNull();
    expect(modeOfRouteId("membership")).toBeNull();
  });
});
