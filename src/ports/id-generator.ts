/** The only source of randomness for the core. */
export interface IdGenerator {
  /** 32 lowercase hex characters (128 bits). Payment ids are `payment_` + this. */
  hex128(): string;
  /** An unguessable URL-safe secret of at least 128 bits (hosted page tokens). */
  secret(): string;
}
