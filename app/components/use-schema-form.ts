import { parse, useForm, type SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import type { z } from "zod";
import type * as Checks from "~/forms/checks";

/** Every form's checks, fetched on demand: see app/forms/checks.ts. */
export type FormChecks = typeof Checks;

interface Loaded {
  schema: z.ZodTypeAny;
  parseWithZod: FormChecks["parseWithZod"];
}

const INTENT = "__intent__";

/**
 * A form checked in the browser by the same schema the action uses: on submit, then again on
 * every input (never on blur, and never for `revalidate: false`), showing the server's reply when
 * there is one, and otherwise `defaultValue` (what was saved). `pick` names the form's schema
 * among all the checks.
 *
 * The checks are fetched when the buyer first turns to the form (focus, a press, a key), or at
 * once when the server has replied to it. A submit that comes before they have arrived is held
 * and sent again by the same button once they have, so no form leaves unchecked; if they cannot
 * be fetched, the form goes to the server, which checks it with the same schema anyway.
 */
export function useSchemaForm<Schema extends z.ZodTypeAny>(
  pick: (checks: FormChecks) => Schema,
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: z.input<Schema>,
  options: { id?: string; revalidate?: boolean } = {},
) {
  const loaded = useRef<Loaded | "unavailable" | null>(null);
  const loading = useRef<Promise<void> | null>(null);
  const latestPick = useRef(pick);
  latestPick.current = pick;
  const load = () =>
    (loading.current ??= import("~/forms/checks").then(
      (checks) => {
        loaded.current = { schema: latestPick.current(checks), parseWithZod: checks.parseWithZod };
      },
      () => {
        loaded.current = "unavailable";
      },
    ));

  const [form, fields] = useForm<z.input<Schema>>({
    id: options.id,
    lastResult,
    defaultValue,
    onValidate: ({ form: element, formData, submitter }) => {
      const current = loaded.current;
      // error null: Conform's word for "let the server check it".
      if (current === "unavailable") return parse(formData, { resolve: () => ({ error: null }) });
      if (current) return current.parseWithZod(formData, { schema: current.schema });
      // Before the checks arrive, an input's own check (an intent) finds nothing yet, and a real
      // submit is held (an empty error stops it) and sent again once they have.
      void load().then(() => {
        if (formData.has(INTENT)) return;
        if (submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) submitter.click();
        else element.requestSubmit();
      });
      return parse(formData, { resolve: () => ({ error: {} }) });
    },
    shouldValidate: "onSubmit",
    shouldRevalidate: options.revalidate === false ? "onSubmit" : "onInput",
  });

  const { id } = form;
  const replied = lastResult != null;
  useEffect(() => {
    if (replied) {
      void load();
      return;
    }
    const element = document.getElementById(id);
    if (!element) return;
    const start = () => void load();
    const events = ["focusin", "pointerdown", "keydown"] as const;
    for (const name of events) element.addEventListener(name, start, { once: true, passive: true });
    return () => {
      for (const name of events) element.removeEventListener(name, start);
    };
    // `load` reads only refs, and a form keeps its id.
  }, [id, replied]);

  return [form, fields] as const;
}
