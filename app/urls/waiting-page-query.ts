/**
 * What the waiting room's page reads: the frame's parameters (language, theme) and its own. That
 * page is written outside Remix's document (app/routes/waiting-room.server.tsx), so its route and
 * its writer share the list from here: a module of its own, which no other page's script loads.
 */
export const WAITING_PAGE_QUERY = ["lng", "cfg", "performance", "to", "c", "refresh"] as const;
