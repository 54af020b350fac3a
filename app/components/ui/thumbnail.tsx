/**
 * A square cover beside the title it illustrates (the footer's releases, the dashboard's
 * featured track, the track form's current cover): decorative (`alt=""`, the title says it),
 * with its size in px as width and height so it takes its place before it loads.
 */
export function Thumbnail({
  src,
  size,
  className,
  ...img
}: {
  src: string;
  size: number;
  className: string;
} & Pick<React.ComponentProps<'img'>, 'loading' | 'decoding'>) {
  return <img src={src} alt="" width={size} height={size} {...img} className={className} />;
}
