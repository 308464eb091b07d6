import { MultiSelect, NativeSelect, Text } from '@pfp/mantine';
import { DateField } from '@pfp/ui';
import { zh } from '@pfp/i18n';
import type { DataTableColumn } from '../columns';
import { validateFilterConfig, type ColumnFilterConfig, type FilterValue } from '../filterExpression';
import { DebouncedNumberInput, DebouncedTextInput } from './DebouncedInputs';

/** 一列的筛选输入（表头第二行），按列的筛选类型选择控件。 */
export function ColumnFilterInput<T>(props: {
  column: DataTableColumn<T>;
  value: FilterValue;
  error: string | undefined;
  delayMs: number;
  onChange: (value: FilterValue) => void;
}) {
  const { column, value, error, delayMs, onChange } = props;
  const label = zh.table.filterBy(column.header);
  const configError = validateFilterConfig(column.filter);
  if (configError !== null || column.filter === undefined) {
    return (
      <Text size="xs" c="red" aria-label={label}>
        {configError ?? zh.table.filterConfigError}
      </Text>
    );
  }
  const config: ColumnFilterConfig = column.filter;
  switch (config.type) {
    case 'boolean': {
      const current =
        value === true || value === 'true' ? 'true' : value === false || value === 'false' ? 'false' : 'all';
      return (
        <NativeSelect
          size="xs"
          aria-label={label}
          value={current}
          error={error}
          data={[
            { value: 'all', label: zh.table.all },
            { value: 'true', label: zh.table.yes },
            { value: 'false', label: zh.table.no },
          ]}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      );
    }
    case 'text':
      return (
        <DebouncedTextInput
          label={label}
          placeholder={config.placeholder ?? zh.table.filterPlaceholder}
          value={typeof value === 'string' ? value : ''}
          error={error}
          delayMs={delayMs}
          onCommit={(text) => onChange(text === '' ? undefined : text)}
        />
      );
    case 'number':
      return (
        <DebouncedNumberInput
          label={label}
          placeholder={config.placeholder ?? zh.table.filterPlaceholder}
          value={typeof value === 'number' || typeof value === 'string' ? value : ''}
          min={config.min}
          max={config.max}
          error={error}
          delayMs={delayMs}
          onCommit={(n) => onChange(n ?? undefined)}
        />
      );
    case 'date':
      return (
        <DateField
          size="xs"
          aria-label={label}
          value={typeof value === 'string' ? value : ''}
          error={error}
          onChange={(day) => onChange(day === '' ? undefined : day)}
        />
      );
    case 'select': {
      const options = config.options.map((o) => ({ value: o.value, label: o.label }));
      if (config.multiple) {
        const selected = Array.isArray(value) ? [...value] : typeof value === 'string' && value !== '' ? [value] : [];
        return (
          <MultiSelect
            size="xs"
            aria-label={label}
            placeholder={selected.length === 0 ? (config.placeholder ?? zh.table.all) : undefined}
            data={options}
            value={selected}
            error={error}
            clearButtonProps={{ 'aria-label': zh.table.clearSelection }}
            onChange={(next) => onChange(next.length === 0 ? undefined : next)}
          />
        );
      }
      return (
        <NativeSelect
          size="xs"
          aria-label={label}
          value={typeof value === 'string' ? value : ''}
          error={error}
          data={[{ value: '', label: config.placeholder ?? zh.table.all }, ...options]}
          onChange={(event) => onChange(event.currentTarget.value === '' ? undefined : event.currentTarget.value)}
        />
      );
    }
  }
}
