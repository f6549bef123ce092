// The forms' schemas as the routes' loaders and actions read them. Through a .server module,
// which Remix empties in the browser's build: once app/forms/checks.ts (fetched on demand) also
// imports a schema module, esbuild keeps that module, and zod with it, in the first load of every
// route module that imports it, even when only the route's server code used it.
export * from "~/forms/accounts";
export * from "~/forms/membership";
export * from "~/forms/staff";
export * from "~/forms/staff-orders";
export * from "~/forms/house-seats";
export * from "~/forms/checkout";
export * from "~/forms/checkout/pay-form";
export { parseWithZod } from "@conform-to/zod";
