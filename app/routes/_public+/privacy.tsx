import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';

import { GeneralErrorBoundary } from '~/components/site/general-error-boundary';
import { LegalPage } from '~/components/site/legal-page';
import { useRootData, useSiteName } from '~/document/use-root-data';
import { pageTitle, seoSite } from '~/utils/seo/seo';

export const meta: MetaFunction = ({ matches }) => [
  pageTitle(matches, 'Privacy Policy'),
  {
    name: 'description',
    content: `What ${seoSite(matches).siteName} collects, why, and how to have it removed.`,
  },
];

export default function PrivacyPage() {
  const name = useSiteName();
  const email = useRootData()?.site.contactEmail ?? '';
  return (
    <LegalPage title="Privacy Policy" updated="January 2026">
      <section>
        <h2>Who we are</h2>
        <p>
          This website is run by {name}, an electronic music collective based in New Jersey. We
          collect as little as we can, use it only to run this site, and never sell it. Questions:{' '}
          <a href={`mailto:${email}`}>{email}</a>.
        </p>
      </section>
      <section>
        <h2>What we collect and why</h2>
        <ul>
          <li>
            <strong>Newsletter sign-ups:</strong> your email address and, when you give it, your
            name (on forms without a name field we store the part of your email before the @ as your
            name). We use them only to send you our newsletter. Every issue has an unsubscribe link
            that takes you off the list at once; we keep the address marked as unsubscribed so that
            no later issue reaches it, and delete it on request. The site never shows whether an
            address is on the list: a sign-up for an address we already know gets the usual answer,
            and its owner hears from us by email. An address that left comes back only when its
            owner follows the confirmation link we email (valid for 7 days).
          </li>
          <li>
            <strong>Contact messages:</strong> your name, email address, the subject and your
            message, so we can reply. Each message is also forwarded to our own inbox by email.
            Messages are kept until we have dealt with them.
          </li>
          <li>
            <strong>Accounts:</strong> if you register, your username and a salted hash of your
            password (never the password itself), and whether your account is an administrator.
          </li>
          <li>
            <strong>Accounts, optionally:</strong> an email address you add on your account page,
            used for the newsletter if you ask for it and to confirm guest-list spots; your
            favourite tracks and guest-list spots. Deleting your account deletes them.
          </li>
          <li>
            <strong>Server logs:</strong> like every web server we briefly record requests (address,
            time, page, browser) to keep the site secure and working.
          </li>
        </ul>
      </section>
      <section>
        <h2>Statistics</h2>
        <p>To see what is listened to and read, we count, per day and without cookies:</p>
        <ul>
          <li>
            <strong>Plays:</strong> a track heard for 30 seconds or to its end in the site’s player
            (the player tells our server the track, nothing else), and <strong>play starts</strong>:
            an audio file asked for from its beginning.
          </li>
          <li>
            <strong>Page views and visits</strong> of the public pages (not your account or the
            admin pages), and the name of the website a visit came from (for example{' '}
            <code>news.example.org</code>, never the full address of the page).
          </li>
        </ul>
        <p className="mt-3">
          To count a visitor who comes back within 30 minutes once, our server makes a fingerprint
          of your address and browser name mixed with a secret value that changes every day, and
          keeps that fingerprint for 30 minutes only. Your address and browser are never stored for
          statistics, nothing is put on your device, and yesterday’s fingerprints cannot be linked
          to today’s. Only the daily totals are kept. Search engines and other robots are not
          counted.
        </p>
      </section>
      <section>
        <h2>Cookies and local storage</h2>
        <ul>
          <li>
            <strong>A session cookie</strong> (<code>__session</code>) keeps you logged in. It is
            only set when you log in or register, holds a random identifier, and is deleted when you
            log out.
          </li>
          <li>
            <strong>A short-lived message cookie</strong> (<code>__toast</code>) carries a
            confirmation such as “Subscribed!” to the next page, then is cleared.
          </li>
          <li>
            <strong>Local storage in your browser</strong> remembers the audio player (queue,
            current track, position, volume, shuffle and loop), your favourite tracks and whether
            you have visited the home page before. It never leaves your device.
          </li>
        </ul>
        <p className="mt-3">
          We use no advertising or third-party analytics trackers (our own statistics are described
          above), and the site loads nothing from other companies’ servers: fonts, images and audio
          are served from this site.
        </p>
      </section>
      <section>
        <h2>Your choices</h2>
        <p>
          You can unsubscribe from the newsletter at any time, or ask us to show, correct or delete
          anything we hold about you, by writing to <a href={`mailto:${email}`}>{email}</a> or using
          the <Link to="/contact">contact form</Link>. Clearing your browser’s site data removes the
          player’s local storage.
        </p>
      </section>
      <section>
        <h2>Changes</h2>
        <p>If this policy changes, we will update this page and the date at the top.</p>
      </section>
    </LegalPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
