import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { STAFF_ACTIONS, STAFF_ROLES, may, type StaffRole } from "~/ticketing/staff-roles";
import { createCookie } from "~/web/cookies.server";
import { requireStaff } from "~/web/staff.server";

// The staff pages' one guard (decision 0059, amended): a 404 for anyone whose role may not do the
// page's action, for every role and action, and for anyone not signed in as staff. Only the door's
// page exists yet, and every role may check in, so the route tests cannot show a lower role
// refused: this does, for the pages still to come.

const staffCookie = createCookie("staff", { secrets: ["a-secret-long-enough-for-the-test"] });

function contextFor(role: StaffRole | null): AppLoadContext {
  return {
    sessions: { staffCookie },
    staff: {
      session: async (token: string | null | undefined) =>
        role && token === "the-token"
          ? { staff: { id: "s-1", email: "s@venue.example", name: "Sam", role, createdAt: "" }, expiresAt: "" }
          : null,
    },
    readOnce: <T>(_key: string, read: () => Promise<T>) => read(),
  } as unknown as AppLoadContext;
}

const requestWith = async (token: string | null) =>
  new Request("http://localhost/staff", {
    headers: token ? { Cookie: (await staffCookie.serialize(token)).split(";")[0]! } : {},
  });

const statusOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 200;
  } catch (thrown) {
    return (thrown as Response).status;
  }
};

describe("requireStaff", () => {
  it.each(STAFF_ROLES)("lets a %s member do what their role may, and answers 404 for the rest", async (role) => {
    for (const action of STAFF_ACTIONS) {
      const status = await statusOf(requireStaff(await requestWith("the-token"), contextFor(role), action));
      expect(status, `${role} ${action}`).toBe(may(role, action) ? 200 : 404);
    }
    expect(await statusOf(requireStaff(await requestWith("the-token"), contextFor(role), null))).toBe(200);
  });

  it("answers 404 to no cookie, and to a token that signs no one in", async () => {
    expect(await statusOf(requireStaff(await requestWith(null), contextFor("manager"), null))).toBe(404);
    expect(await statusOf(requireStaff(await requestWith("another"), contextFor("manager"), "checkIn"))).toBe(404);
  });
});
