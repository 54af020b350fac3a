import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { NavLink, Outlet, useLoaderData } from '@remix-run/react';

import { requireAdmin } from '~/auth/auth.server';
import {
  CalendarDays,
  FileText,
  ImageIcon,
  LayoutDashboard,
  Mail,
  MessageSquare,
  Music,
  Settings,
  Users,
} from '~/components/admin/icons';
import { env } from '~/platform/env.server';
import { cn } from '~/utils/cn';
import { adminTitle } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => adminTitle(matches);

/**
 * The admin layout. Its loader guards every /admin page; child loaders and actions must
 * still call `requireAdmin(request)` themselves (a layout loader does not protect actions,
 * and child loaders run in parallel with it).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireAdmin(request);
  // The audio cap, for the track form's hint (its resumable upload field reads it).
  return { username: user.username, maxAudioMb: env.MAX_AUDIO_MB };
}

const ADMIN_NAV = [
  { to: '/admin', label: 'Dashboard', icon: LayoutDashboard, end: true },
  { to: '/admin/tracks', label: 'Tracks', icon: Music, end: false },
  { to: '/admin/gallery', label: 'Gallery', icon: ImageIcon, end: false },
  { to: '/admin/blog', label: 'Blog', icon: FileText, end: false },
  { to: '/admin/newsletter', label: 'Newsletter', icon: Mail, end: false },
  { to: '/admin/messages', label: 'Messages', icon: MessageSquare, end: false },
  { to: '/admin/shows', label: 'Shows', icon: CalendarDays, end: false },
  { to: '/admin/fediverse', label: 'Fediverse', icon: Users, end: false },
  { to: '/admin/settings', label: 'Settings', icon: Settings, end: false },
] as const;

export default function AdminLayout() {
  const { username } = useLoaderData<typeof loader>();
  return (
    <div className="container pb-8 pt-24">
      <div className="flex flex-col gap-8 lg:flex-row">
        <aside className="lg:w-56 lg:shrink-0">
          <p className="mb-3 text-xs font-semibold uppercase tracking-wider text-muted-foreground">
            Admin · {username}
          </p>
          <nav aria-label="Admin">
            <ul className="flex flex-wrap gap-1 lg:flex-col">
              {ADMIN_NAV.map(({ to, label, icon: Icon, end }) => (
                <li key={to}>
                  <NavLink
                    to={to}
                    end={end}
                    prefetch="intent"
                    className={({ isActive }) =>
                      cn(
                        'flex items-center gap-2 rounded-md px-3 py-2 text-sm font-medium transition-colors',
                        'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                        isActive
                          ? 'bg-primary text-primary-foreground'
                          : 'text-foreground hover:bg-muted',
                      )
                    }
                  >
                    <Icon aria-hidden="true" className="h-4 w-4" />
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        </aside>
        <div className="min-w-0 flex-1">
          <Outlet />
        </div>
      </div>
    </div>
  );
}
