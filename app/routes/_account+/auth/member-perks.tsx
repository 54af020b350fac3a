import { CalendarHeart, Headphones, Lock } from '~/components/site/icons';

const PERKS = [
  {
    icon: Lock,
    title: 'Exclusive member-only content',
    text: 'Studio diaries, stems and sets you won’t find anywhere else.',
  },
  {
    icon: Headphones,
    title: 'Early access to new releases',
    text: 'Hear new tracks before they hit the streaming services.',
  },
  {
    icon: CalendarHeart,
    title: 'Special event invitations',
    text: 'Guest-list spots and invitations to members-only nights.',
  },
];

/** Why to join: the perks of a free account, beside the forms. */
export function MemberPerks({ siteName }: { siteName: string }) {
  return (
    <aside
      aria-labelledby="join-heading"
      className="rounded-lg border border-border bg-gradient-to-br from-primary/20 via-card to-card p-6 sm:p-8"
    >
      <h2 id="join-heading" className="font-heading text-2xl font-bold">
        Join the {siteName} community
      </h2>
      <p className="mt-3 text-muted-foreground">
        Become a member and get closer to the music: a free account opens the door to everything we
        do beyond the dance floor.
      </p>
      <ul className="mt-6 space-y-5">
        {PERKS.map(({ icon: Icon, title, text }) => (
          <li key={title} className="flex gap-4">
            <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary/15 text-primary">
              <Icon aria-hidden="true" className="h-5 w-5" />
            </span>
            <span>
              <span className="block font-semibold">{title}</span>
              <span className="block text-sm text-muted-foreground">{text}</span>
            </span>
          </li>
        ))}
      </ul>
    </aside>
  );
}
