import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

import { axisMax, DayChart } from './day-chart';

describe('DayChart', () => {
  const days = [
    '2026-11-20',
    '2026-11-21',
    '2026-11-22',
    '2026-11-23',
    '2026-11-24',
    '2026-11-25',
    '2026-11-26',
  ];
  const html = renderToString(
    <DayChart
      title="Plays per day"
      days={days}
      series={[
        { label: 'Plays', values: [3, 0, 7, 1, 0, 12, 4], className: 'text-primary' },
        { label: 'Play starts', values: [5, 1, 9, 2, 0, 15, 6], className: 'text-muted' },
      ]}
    />,
  );

  it('draws a bar for every non-zero figure, on a round axis', () => {
    expect(html.match(/<rect x=/g)).toHaveLength(11); // 5 plays and 6 starts above zero
    expect(axisMax(15)).toBe(20);
    expect(axisMax(7)).toBe(10);
    expect(axisMax(0)).toBe(1);
    expect(html).toContain('>20</text>');
    expect(html).toContain('Plays: 27');
    expect(html).toContain('Play starts: 38');
  });

  it('gives the same figures as a table, the drawing hidden from screen readers', () => {
    expect(html).toMatch(/<svg viewBox="0 0 640 180"[^>]*aria-hidden="true"/);
    expect(html).toContain('<caption>Plays per day<!-- -->, day by day</caption>');
    expect(html).toContain('<tr><th scope="row">2026-11-25</th><td>12</td><td>15</td></tr>');
  });
});
