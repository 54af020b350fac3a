import { createElement, forwardRef, type SVGProps } from 'react';

/*
 * An icon drawn from a sprite: `<svg viewBox class="icon …"><use href="SPRITE#name"/></svg>`.
 * The page's JavaScript carries only the name; the shapes arrive once, in a fingerprinted SVG
 * file the browser caches for a year (page-weight budget, issues 9 and 19). Lucide's stroke
 * attributes (and the 24 px size a class always overrides) are the `.icon` rule of
 * app/styles/tailwind.css, not repeated on every icon; `aria-hidden="true"` unless the icon is
 * labelled. The sprites are written by `npm run icons` (app/components/site/icon-names.ts).
 */

export type IconProps = SVGProps<SVGSVGElement>;

/** What an icon component is, whichever sprite it comes from (e.g. Card's `icon`). */
export type IconComponent = ReturnType<typeof spriteIcon>;

const A11Y_PROP = /^aria-(?!hidden)|^role$|^title$/;

export function spriteIcon(spriteHref: string, name: string) {
  const Icon = forwardRef<SVGSVGElement, IconProps>(function Icon(
    { className, children, ...rest },
    ref,
  ) {
    const labelled = Boolean(children) || Object.keys(rest).some((k) => A11Y_PROP.test(k));
    return createElement(
      'svg',
      {
        ref,
        viewBox: '0 0 24 24',
        className: className ? `icon ${className}` : 'icon',
        ...(labelled ? {} : { 'aria-hidden': true }),
        ...rest,
      },
      createElement('use', { href: `${spriteHref}#${name}` }),
      children,
    );
  });
  Icon.displayName = name;
  return Icon;
}
