/** Text with its runs of white space made one space, as a reader takes it in. */
export const words = (text: string | null | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/**
 * What a screen reader says of an element's text: its words without what is hidden from
 * assistive technology (aria-hidden marks such as an access service's "CC"), which a sighted
 * reader also sees (`words(element.textContent)`).
 */
export function heard(element: Element | null | undefined): string {
  if (!element) return "";
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
  return words(copy.textContent);
}
