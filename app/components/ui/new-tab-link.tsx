/**
 * A link to another site that opens in a new tab, without handing it this page (`noopener`)
 * or the address it came from (`noreferrer`). Its text says "(opens in a new tab)" itself.
 */
export function NewTabLink({
  href,
  children,
  ...props
}: React.AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" {...props}>
      {children}
    </a>
  );
}
