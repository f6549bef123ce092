// An error as the error summary lists it, for the forms' messages and the components.

export interface SummaryError {
  /** The id of the field to move to, or null for an error about the whole form. */
  field: string | null;
  text: string;
}
