import type { QueryResultRow } from 'pg';
import { contactInOrder, type Contact } from '../../src/domain/contact.js';
import { isoTime } from '../../src/domain/iso-time.js';

/**
 * How a record field is kept in its column: as is (`value`), as JSON (`json`; `contact` also puts the
 * keys back in order), as an int8 (`int8`), as a timestamptz of epoch ms (`time`), or one `card_<key>`
 * column of the record's card summary (`card`).
 */
export type ColumnKind = 'value' | 'json' | 'contact' | 'int8' | 'time' | 'card';

/** A record's columns in parameter order after `id`: the column, the record field, how it is kept (and its SQL type). */
export type ColumnMap<R> = readonly (readonly [
  column: string,
  field: keyof R & string,
  kind: ColumnKind,
  sqlType?: string,
])[];

/** Thrown when a stored value cannot be a record field (a bigint beyond 2^53); the repository reports it. */
export class UnreadableRowError extends Error {
  override readonly name = 'UnreadableRowError';
}

/** An int8 as a JS number, refusing values that a double cannot hold exactly. */
export function safeNumber(text: string, what: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new UnreadableRowError(`${what} is not a safe integer`);
  return value;
}

/** An int8 or null as a JS number or null (see `safeNumber`). */
const optionalNumber = (text: unknown, what: string): number | null =>
  text === null ? null : safeNumber(text as string, what);

/** The select list of `id` and the columns of a table aliased `table`, times as epoch ms (`<column>_ms`, int8). */
export function selectList(columns: ColumnMap<never>, table: string): string {
  const plain = columns.filter(([, , kind]) => kind !== 'time').map(([column]) => `${table}.${column}`);
  const epochMs = columns
    .filter(([, , kind]) => kind === 'time')
    .map(([column]) => `(extract(epoch from ${table}.${column}) * 1000)::int8 AS ${column}_ms`);
  return [`${table}.id`, ...plain, ...epochMs].join(', ');
}

/** The parameter of `column` for the value of its field. */
function param(value: unknown, column: string, kind: ColumnKind): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'json':
    case 'contact':
      return JSON.stringify(value);
    case 'time':
      return isoTime(value as number);
    case 'card':
      return (value as Readonly<Record<string, unknown>>)[column.slice('card_'.length)] ?? null;
    default:
      return value;
  }
}

/** The parameters of `record` for `columns`, in that order. */
export const paramsOf = <R>(columns: ColumnMap<R>, record: R): unknown[] =>
  columns.map(([column, field, kind]) => param(record[field], column, kind));

/**
 * The record a row of `selectList(columns)` holds (as `pg` returns it: int8 as strings, jsonb parsed): the
 * exact inverse of `paramsOf`. A card is null when its first column is.
 */
export function recordOf<R>(columns: ColumnMap<R>, row: QueryResultRow): R {
  const record: Record<string, unknown> = { id: row.id };
  for (const [column, field, kind] of columns) {
    const value: unknown = row[kind === 'time' ? `${column}_ms` : column];
    if (kind === 'card') {
      const card = field in record ? (record[field] as Record<string, unknown> | null) : value === null ? null : {};
      if (card !== null) card[column.slice('card_'.length)] = value ?? '';
      record[field] = card;
    } else if (kind === 'contact') record[field] = contactInOrder(value as Contact);
    else if (kind === 'int8' || kind === 'time') record[field] = optionalNumber(value, column);
    else record[field] = value;
  }
  return record as R;
}
