import type { ColumnType } from 'kysely';

/** The column types the row types of schema.ts are written with. */
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
/** A timestamp column with a default: optional on insert. */
export type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** numeric columns come back as JS numbers (see the type parsers in database.ts). */
export type Numeric = ColumnType<number, number | string, number | string>;
export type DefaultNumeric = ColumnType<number, number | string | undefined, number | string>;
