import { format, parseISO } from 'date-fns';

/** An ISO date as the dashboard shows it: 'MMM d, yyyy'. */
export const shortDate = (iso: string) => format(parseISO(iso), 'MMM d, yyyy');
