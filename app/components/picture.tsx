import type { PictureView } from "~/views/show-list";

/**
 * A picture the import made: AVIF, then WebP, then JPEG, each in its sizes, the browser choosing
 * by `sizes`; `width` and `height` keep its space while it loads. Lazy unless it is near the top.
 */
export function Picture({
  picture,
  sizes,
  className,
  eager = false,
}: {
  picture: PictureView;
  sizes: string;
  className?: string;
  eager?: boolean;
}) {
  return (
    <picture className={className}>
      {picture.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcSet} sizes={sizes} />
      ))}
      <img
        src={picture.src}
        srcSet={picture.srcSet}
        sizes={sizes}
        width={picture.width}
        height={picture.height}
        alt={picture.alt}
        loading={eager ? "eager" : "lazy"}
        decoding="async"
      />
    </picture>
  );
}
