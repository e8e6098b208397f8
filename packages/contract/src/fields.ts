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

function make(kind: FieldKind, options: Options = {}): FieldDef {
  return { required: false, list: false, search: false, readOnly: false, ...options, kind };
}

export const field = {
  text: (o?: Options) => make('text', { maxLength: 255, ...o }),
  longText: (o?: Options) => make('longText', { maxLength: 4000, ...o }),
  email: (o?: Options) => make('email', { maxLength: 255, ...o }),
  phone: (o?: Options) => make('phone', { maxLength: 32, ...o }),
  url: (o?: Options) => make('url', { maxLength: 1000, ...o }),
  color: (o?: Options) => make('color', o),
  image: (o?: Options) => make('image', { maxLength: 1000, ...o }),
  integer: (o?: Options) => make('integer', o),
  number: (o?: Options) => make('number', o),
  boolean: (o?: Options) => make('boolean', o),
  enum: (options: readonly string[], o?: Options) => make('enum', { ...o, options }),
  ref: (ref: string, o?: Options) => make('reference', { ...o, ref }),
  date: (o?: Options) => make('date', o),
  datetime: (o?: Options) => make('datetime', o),
  time: (o?: Options) => make('time', o),
  json: (o?: Options) => make('json', o),
  secret: (secret: 'hash' | 'encrypt', o?: Options) => make('secret', { maxLength: 200, ...o, secret }),
};

export const NUMERIC_KINDS: readonly FieldKind[] = ['integer', 'number', 'reference'];
export const TEXT_KINDS: readonly FieldKind[] = ['text', 'longText', 'email', 'phone', 'url', 'color', 'image', 'enum'];
export const TIME_KINDS: readonly FieldKind[] = ['date', 'datetime'];
