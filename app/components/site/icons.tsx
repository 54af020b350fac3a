import { createElement, forwardRef, type SVGProps } from 'react';

import type { SiteIconName } from './icon-names';
import spriteHref from './sprite.svg';

/*
 * The icons of the public site and the player: Lucide's drawings (https://lucide.dev, ISC
 * licence), each a `<use>` of its symbol in the site's sprite (see icon-names.ts). The page's
 * JavaScript carries only the names; the shapes arrive once, in a fingerprinted SVG file the
 * browser caches for a year (page-weight budget, issue 9 and 19). The markup is only
 * `<svg viewBox class="icon …">`: Lucide's stroke attributes (and the 24 px size a class always
 * overrides) are the `.icon` rule of app/styles/tailwind.css, not repeated on every icon;
 * `aria-hidden="true"` unless the icon is labelled. The admin keeps using lucide-react.
 */

export type IconProps = SVGProps<SVGSVGElement>;

const A11Y_PROP = /^aria-(?!hidden)|^role$|^title$/;

function icon(name: SiteIconName) {
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

export const ArrowRight = icon('arrow-right');
export const CalendarDays = icon('calendar-days');
export const CheckCircle2 = icon('circle-check');
export const Download = icon('download');
export const Eye = icon('eye');
export const Headphones = icon('headphones');
export const Heart = icon('heart');
export const Home = icon('house');
export const Images = icon('images');
export const LayoutDashboard = icon('layout-dashboard');
export const ListMusic = icon('list-music');
export const ListPlus = icon('list-plus');
export const Lock = icon('lock');
export const LogOut = icon('log-out');
export const Mail = icon('mail');
export const Menu = icon('menu');
export const Music = icon('eighth-notes');
export const Newspaper = icon('newspaper');
export const Pause = icon('pause');
export const Play = icon('play');
export const Repeat = icon('repeat');
export const RotateCcw = icon('rotate-ccw');
export const RotateCw = icon('rotate-cw');
export const Settings = icon('settings');
export const Share2 = icon('share-2');
export const Shuffle = icon('shuffle');
export const SkipBack = icon('skip-back');
export const SkipForward = icon('skip-forward');
export const Volume1 = icon('volume-1');
export const Volume2 = icon('volume-2');
export const VolumeX = icon('volume-x');
export const X = icon('x');
