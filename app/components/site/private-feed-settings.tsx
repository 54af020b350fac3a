import { Form } from '@remix-run/react';
import { useRef, useState } from 'react';

import { showToast } from '~/components/site/toaster';
import { Button, SubmitButton } from '~/components/ui/button';
import { inputClass } from '~/components/ui/field';
import { useHydrated } from '~/player/use-hydrated';
import { PODCAST_FEED_CREATE_INTENT, PODCAST_FEED_REVOKE_INTENT } from '~/schemas/account';
import { cn } from '~/utils/cn';

/** A form of one button that posts its `intent`; pending while that intent is being sent. */
function IntentForm({
  intent,
  submittingIntent,
  pendingLabel,
  variant,
  children,
}: {
  intent: string;
  submittingIntent: FormDataEntryValue | null | undefined;
  pendingLabel: string;
  variant: 'outline' | 'destructive';
  children: React.ReactNode;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={intent} />
      <SubmitButton
        pending={submittingIntent === intent}
        pendingLabel={pendingLabel}
        variant={variant}
      >
        {children}
      </SubmitButton>
    </Form>
  );
}

/**
 * A member's private podcast feed on /account (decision 037): create, regenerate, revoke. The
 * URL is shown once, in the answer to "Create", with a copy button when JavaScript runs (and a
 * selectable field without it); afterwards only its creation date is known.
 */
export function PrivateFeedSettings({
  createdAt,
  newFeedUrl,
  submittingIntent,
}: {
  createdAt: string | null;
  newFeedUrl: string | null;
  submittingIntent: FormDataEntryValue | null | undefined;
}) {
  const hydrated = useHydrated();
  const urlRef = useRef<HTMLInputElement>(null);
  const [copyStatus, setCopyStatus] = useState<string | null>(null);

  async function copy() {
    if (!newFeedUrl) return;
    try {
      await navigator.clipboard.writeText(newFeedUrl);
    } catch {
      urlRef.current?.select();
      if (!document.execCommand('copy')) {
        setCopyStatus('Could not copy automatically: select the address and copy it by hand.');
        return;
      }
    }
    setCopyStatus(null);
    showToast({ type: 'success', title: 'Copied', description: 'Paste it into your podcast app.' });
  }

  return (
    <>
      <h2 className="mt-8 font-heading text-lg font-semibold">Private podcast feed</h2>
      <p className="mt-2 text-sm text-muted-foreground">
        Listen to every mix, the members-only ones included, in your podcast app. Your feed address
        is private: anyone who has it can listen, so keep it to yourself. Changing your password
        revokes it, as it signs out your other sessions: create a new one afterwards.
      </p>
      {newFeedUrl ? (
        <div className="mt-3 rounded-md border border-border p-3" data-testid="new-feed-url">
          <label htmlFor="private-feed-url" className="text-sm font-medium">
            Your private feed address (shown only this once)
          </label>
          <input
            ref={urlRef}
            id="private-feed-url"
            type="text"
            readOnly
            value={newFeedUrl}
            onFocus={(event) => event.currentTarget.select()}
            aria-describedby="private-feed-url-hint"
            className={cn(inputClass, 'mt-1 font-mono text-xs')}
          />
          <p id="private-feed-url-hint" className="mt-1 text-xs text-muted-foreground">
            Copy it into your podcast app now (&ldquo;Add a show by URL&rdquo;). We keep only a
            fingerprint of it: if you lose it, create a new one.
          </p>
          {hydrated ? (
            <Button type="button" variant="outline" className="mt-2" onClick={() => void copy()}>
              Copy address
            </Button>
          ) : null}
          <p role="status" className="mt-1 text-xs">
            {copyStatus}
          </p>
        </div>
      ) : createdAt ? (
        <p className="mt-3 text-sm" data-testid="feed-status">
          You have a private feed, created on{' '}
          <time dateTime={createdAt}>{createdAt.slice(0, 10)}</time>.
        </p>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <IntentForm
          intent={PODCAST_FEED_CREATE_INTENT}
          submittingIntent={submittingIntent}
          pendingLabel="Creating..."
          variant="outline"
        >
          {createdAt || newFeedUrl ? 'Replace with a new address' : 'Create my private feed'}
        </IntentForm>
        {createdAt || newFeedUrl ? (
          <IntentForm
            intent={PODCAST_FEED_REVOKE_INTENT}
            submittingIntent={submittingIntent}
            pendingLabel="Revoking..."
            variant="destructive"
          >
            Revoke my private feed
          </IntentForm>
        ) : null}
      </div>
      {createdAt || newFeedUrl ? (
        <p className="mt-2 text-xs text-muted-foreground">
          A new address or revoking stops the old one at once, in every app that uses it.
        </p>
      ) : null}
    </>
  );
}
