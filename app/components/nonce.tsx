import { createContext, useContext } from "react";

// The per-request CSP nonce. Only the server knows it; in the browser it reads "" — which is what
// the browser shows for a nonce attribute anyway, so hydration agrees.
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
