import type { NewsletterJSON } from '~/types/entities';
import { formatMessageDate } from '~/utils/time';

/** The newsletters recorded so far, newest first. */
export function RecordedNewsletters({ newsletters }: { newsletters: NewsletterJSON[] }) {
  return (
    <div>
      <h2 className="mb-3 text-xl font-semibold">Recorded newsletters</h2>
      {newsletters.length === 0 ? (
        <p className="text-sm text-muted-foreground">No newsletters have been recorded yet.</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-border bg-card">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Recorded newsletters, newest first</caption>
            <thead className="border-b border-border bg-muted/50">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Subject
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  Recorded
                </th>
                <th scope="col" className="px-4 py-3 text-right font-semibold">
                  Subscribers
                </th>
              </tr>
            </thead>
            <tbody>
              {newsletters.map((n) => (
                <tr key={n.id} className="border-b border-border last:border-0">
                  <th scope="row" className="px-4 py-3 font-medium">
                    {n.subject}
                  </th>
                  <td className="whitespace-nowrap px-4 py-3">
                    <time dateTime={n.sentAt}>{formatMessageDate(n.sentAt)}</time>
                  </td>
                  <td className="px-4 py-3 text-right tabular-nums">{n.sentCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
