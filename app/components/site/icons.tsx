import { type IconProps, spriteIcon } from '~/components/ui/sprite-icon';

import type { SiteIconName } from './icon-names';
import spriteHref from './sprite.svg';

/*
 * The icons of the public site and the player: Lucide's drawings (https://lucide.dev, ISC
 * licence), each a `<use>` of its symbol in the site's sprite (see icon-names.ts and
 * ~/components/ui/sprite-icon). The admin's are in its own sprite (~/components/admin/icons).
 */

export type { IconProps };

const icon = (name: SiteIconName) => spriteIcon(spriteHref, name);

export const ArrowLeft = icon('arrow-left');
export const ArrowRight = icon('arrow-right');
export const CalendarDays = icon('calendar-days');
export const CalendarHeart = icon('calendar-heart');
export const CalendarPlus = icon('calendar-plus');
export const CheckCircle2 = icon('circle-check');
export const Clock = icon('clock');
export const Download = icon('download');
export const ExternalLink = icon('external-link');
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
export const MapPin = icon('map-pin');
export const Menu = icon('menu');
export const Music = icon('eighth-notes');
export const Newspaper = icon('newspaper');
export const Pause = icon('pause');
export const Phone = icon('phone');
export const Play = icon('play');
export const Repeat = icon('repeat');
export const RotateCcw = icon('rotate-ccw');
export const RotateCw = icon('rotate-cw');
export const Search = icon('search');
export const Settings = icon('settings');
export const Share2 = icon('share-2');
export const Shuffle = icon('shuffle');
export const SkipBack = icon('skip-back');
export const SkipForward = icon('skip-forward');
export const Ticket = icon('ticket');
export const Users = icon('users');
export const Volume1 = icon('volume-1');
export const Volume2 = icon('volume-2');
export const VolumeX = icon('volume-x');
export const X = icon('x');
