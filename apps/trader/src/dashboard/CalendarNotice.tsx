import { Alert, Stack } from '@pfp/mantine';
import { CALENDAR_TO, missingCalendarYear } from '@pfp/contract';
import { beijingDay, zh } from '@pfp/i18n';
import { useState, type ReactNode } from 'react';
import { TONE } from '../shared/tones';

/**
 * From 1 December, while next year's exchange calendar is not in the data (docs/calendar.md, the
 * year-end rule): staff are told that deadlines in that year are counted as weekdays.
 */
export function CalendarNotice() {
  const [missing] = useState(() => missingCalendarYear(beijingDay(Date.now())));
  if (missing === undefined) return null;
  return (
    <Alert
      color={TONE.warning}
      variant="light"
      role="status"
      title={zh.fixing.calendarMissingTitle}
      data-testid="calendar-missing"
    >
      {zh.fixing.calendarMissing(missing, CALENDAR_TO)}
    </Alert>
  );
}

/** The dashboard's banners, one under the other. */
export function Banners({ children }: { children: ReactNode }) {
  return <Stack gap="sm">{children}</Stack>;
}
