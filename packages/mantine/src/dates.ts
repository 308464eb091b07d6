// Fetched on a date field's first render (see DateInput.tsx): the calendar and dayjs stay off the
// first load of pages without one. The locale registers on the dayjs bundled with @mantine/dates.
import 'dayjs/locale/zh-cn';

export { DateInput as default } from '@mantine/dates';
