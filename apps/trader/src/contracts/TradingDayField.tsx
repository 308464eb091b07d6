import { CALENDAR_TO, exchangeOfSymbol, isKnownDay, isTradingDay } from '@pfp/contract';
import { zh } from '@pfp/i18n';
import { DateField, type DateFieldProps } from '@pfp/ui';

/**
 * A fixing-deadline day field: the calendar greys the days the future's exchange does not trade
 * (weekends, holidays: the exchange calendar of @pfp/contract, docs/calendar.md), and a day past the
 * published calendar says that it is counted as a weekday (the year-end rule).
 */
export function TradingDayField({
  instrumentId,
  description,
  ...props
}: DateFieldProps & { instrumentId: string | null | undefined }) {
  const exchange = exchangeOfSymbol(instrumentId ?? '') ?? 'SHFE';
  const beyond = props.value !== undefined && props.value > CALENDAR_TO && !isKnownDay(props.value);
  return (
    <DateField
      {...props}
      description={beyond ? zh.fixing.deadlineBeyondCalendar(CALENDAR_TO) : description}
      excludeDate={(day) => !isTradingDay(exchange, day.slice(0, 10))}
    />
  );
}
