import { useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { z } from "zod";

/**
 * A form checked in the browser by the same schema the action uses: on submit, then again on
 * every input (never on blur), showing the server's reply when there is one, and otherwise
 * `defaultValue` (what was saved).
 */
export function useSchemaForm<Schema extends z.ZodTypeAny>(
  schema: Schema,
  lastResult: SubmissionResult<string[]> | null | undefined,
  defaultValue?: z.input<Schema>,
) {
  return useForm<z.input<Schema>>({
    lastResult,
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
}
