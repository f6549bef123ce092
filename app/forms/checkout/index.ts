// The checkout's form schemas: one per form, built by the same factory on the server (the action,
// which is all there is without script) and in the browser (Conform's onValidate).
export * from "./contacts";
export * from "./fields";
export * from "./messages";
export * from "./payment";
export * from "./steps";
export * from "./vouchers";
