import type { AdminIconName } from '~/components/site/icon-names';
import { spriteIcon } from '~/components/ui/sprite-icon';

import spriteHref from './sprite.svg';

/*
 * The admin's icons: Lucide's drawings (https://lucide.dev, ISC licence), each a `<use>` of its
 * symbol in the admin's own sprite (`sprite.svg` beside this file, written by `npm run icons`
 * from ADMIN_ICON_NAMES), so the public pages' sprite carries none of them. Named as
 * lucide-react names them.
 */

const icon = (name: AdminIconName) => spriteIcon(spriteHref, name);

export const ArrowLeft = icon('arrow-left');
export const BarChart3 = icon('chart-column');
export const CalendarDays = icon('calendar-days');
export const Copy = icon('copy');
export const Download = icon('download');
export const ExternalLink = icon('external-link');
export const Eye = icon('eye');
export const FileText = icon('file-text');
export const ImageIcon = icon('image');
export const LayoutDashboard = icon('layout-dashboard');
export const Mail = icon('mail');
export const MapPin = icon('map-pin');
export const MessageSquare = icon('message-square');
export const Music = icon('eighth-notes');
export const Palette = icon('palette');
export const Pencil = icon('pencil');
export const Plus = icon('plus');
export const Search = icon('search');
export const Send = icon('send');
export const Settings = icon('settings');
export const Shuffle = icon('shuffle');
export const Star = icon('star');
export const Trash2 = icon('trash');
export const Users = icon('users');
