/** A page's share card: what Open Graph and Twitter tags say of it (its loader's `share`). */
export interface ShareCard {
  title: string;
  description: string;
  type: "website" | "article";
  /** Absolute. */
  url: string;
  image: string | null;
  /** The deployment's name (the brand's, else the wording's), never a venue's. */
  siteName: string;
}
