import { createContext, useContext } from "react";
import type { HtmlSplice } from "~/views/html-splice";

const SpliceContext = createContext<HtmlSplice | null>(null);
/** The page's splice (app/views/html-splice.ts), given by the server's render only. */
export const HtmlSpliceProvider = SpliceContext.Provider;
export const useHtmlSplice = () => useContext(SpliceContext);
