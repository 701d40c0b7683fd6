/** The only source of time for the core. Adapters: system clock, controllable test clock. */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
}
