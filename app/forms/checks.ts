// Every form's schema and Conform's zod reader, as one module the browser fetches when a buyer
// first turns to a form (useSchemaForm), not with the page: zod, libphonenumber's metadata and
// card-validator weigh more than the rest of a form page's script together (issue 16 item 8).
// One module for all of them, so a checkout fetches its checks once, and no route module reaches
// a schema module through a dynamic import (esbuild then keeps that module in every importer's
// first load, even where only the server code used it).
export { parseWithZod } from "@conform-to/zod";
export {
  choosePasswordSchema,
  detailsSchema,
  forgottenPasswordSchema,
  registerSchema,
  signInSchema,
} from "~/forms/accounts";
export { accessSchema } from "~/forms/membership";
export { checkInSchema, doorChoiceSchema, staffSignInSchema } from "~/forms/staff";
export { orderSearchSchema, refundRetrySchema, refundSchema, resendSchema } from "~/forms/staff-orders";
export { compSchema, holdSeatsSchema, releaseSeatsSchema } from "~/forms/house-seats";
export {
  contactsSchema,
  deliverySchema,
  extrasSchema,
  promoSchema,
  protectionSchema,
  voucherSchema,
} from "~/forms/checkout";
export { payFormSchema } from "~/forms/checkout/pay-form";
