import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { WAITING_PAGE_QUERY } from "~/urls/waiting-page-query";
import { safeReturnPath } from "~/urls/return-path";

// /waiting-room: the buyer's place in the queue for a tickets page. While a room is on, the door
// (app/web/door.server.ts) answers this address before Remix is asked, with the page written by
// ./waiting-room.server.tsx (decision 0056). What reaches this route has no queue to wait in (or
// no such performance), or was let in: it goes on to the page it came from.

export const handle = { query: WAITING_PAGE_QUERY };

/** The door's page writer, which the server finds in the build (app/web/app.server.ts). */
export { createDoorPages as doorPages } from "./waiting-room.server";

export function loader({ request }: LoaderFunctionArgs) {
  throw redirect(safeReturnPath(new URL(request.url).searchParams.get("to")), 303);
}
