/** One schema change: applied once, in `version` order, inside its own transaction. */
export interface Migration {
  /** 1, 2, 3, …: never reused, never reordered. */
  readonly version: number;
  /** snake_case, for the migrations table and logs. */
  readonly name: string;
  /** The SQL to run; may hold several statements. Never edited once released: add a migration instead. */
  readonly sql: string;
}
