/** A field's kind decides its column, its filter widget, its form widget and its validation. */
export type FieldKind =
  | 'text'
  | 'longText'
  | 'email'
  | 'phone'
  | 'url'
  | 'color'
  | 'image'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'enum'
  | 'reference'
  | 'date'
  | 'datetime'
  | 'time'
  | 'json'
  | 'secret';

export interface FieldDef {
  kind: FieldKind;
  required: boolean;
  /** Shown as a column when no columns are chosen. */
  list: boolean;
  /** Matched by the `q` text search. */
  search: boolean;
  /** Set by the server; never accepted in a command body. */
  readOnly: boolean;
  /**
   * Worked out by the server for the account the caller acts in, with no column of its own (so
   * always read-only): listed and shown, never filtered on, sorted by or written.
   */
  virtual?: boolean;
  min?: number;
  max?: number;
  maxLength?: number;
  options?: readonly string[];
  /** The options are technical codes (LoRaWAN regions, data types), shown as they are in every language. */
  codes?: boolean;
  /** Prefix of the referenced resource. */
  ref?: string;
  /** How a secret is kept: a one-way hash (passwords) or reversible encryption (service keys). */
  secret?: 'hash' | 'encrypt';
  /**
   * A text with a fixed form: `eui64` (a DevEUI, stored as 16 lowercase hex digits; separators and
   * capitals accepted on input), `deviceUid` (an IP device's uid: its MQTT username and topic level), `timeZone` (an IANA zone
   * name such as Europe/Istanbul that the runtime's Intl knows).
   */
  format?: 'eui64' | 'deviceUid' | 'timeZone';
}

type Options = Partial<Omit<FieldDef, 'kind'>>;

/**
 * A field's definition as its builder typed it: the kind, whether it is required and an enum's
 * options stay exact, so `RecordOf` (record.ts) can derive a record's type from its definition.
 */
export type TypedField<K extends FieldKind, R extends boolean = boolean, V extends string = string> = FieldDef & {
  kind: K;
  required: R;
  options?: readonly V[];
};

type Required<O> = O extends { required: true } ? true : boolean;

function make(kind: FieldKind, options: Options = {}): FieldDef {
  return { required: false, list: false, search: false, readOnly: false, ...options, kind };
}

/** A builder of one kind with its defaults; the field it makes is typed by the options it was given. */
function kind<K extends FieldKind>(k: K, defaults: Options = {}) {
  return <const O extends Options = Options>(o?: O) => make(k, { ...defaults, ...o }) as TypedField<K, Required<O>>;
}

export const field = {
  text: kind('text', { maxLength: 255 }),
  longText: kind('longText', { maxLength: 4000 }),
  email: kind('email', { maxLength: 255 }),
  phone: kind('phone', { maxLength: 32 }),
  url: kind('url', { maxLength: 1000 }),
  color: kind('color'),
  image: kind('image', { maxLength: 1000 }),
  integer: kind('integer'),
  number: kind('number'),
  boolean: kind('boolean'),
  enum: <const V extends string, const O extends Options = Options>(options: readonly V[], o?: O) =>
    make('enum', { ...o, options }) as TypedField<'enum', Required<O>, V>,
  ref: <const O extends Options = Options>(ref: string, o?: O) =>
    make('reference', { ...o, ref }) as TypedField<'reference', Required<O>>,
  date: kind('date'),
  datetime: kind('datetime'),
  time: kind('time'),
  json: kind('json'),
  secret: <const O extends Options = Options>(secret: 'hash' | 'encrypt', o?: O) =>
    make('secret', { maxLength: 200, ...o, secret }) as TypedField<'secret', Required<O>>,
};

export const NUMERIC_KINDS: readonly FieldKind[] = ['integer', 'number', 'reference'];
export const TEXT_KINDS: readonly FieldKind[] = ['text', 'longText', 'email', 'phone', 'url', 'color', 'image', 'enum'];
export const TIME_KINDS: readonly FieldKind[] = ['date', 'datetime'];
