// Python's date, datetime, timedelta and isodate's calendar Duration, as far as templates use them:
// text forms (str/isoformat/repr), arithmetic, comparison and fields. Formatting/parsing of text
// lives in datetimeFormat.ts. Times are kept as wall-clock milliseconds plus a UTC offset.

const MS_PER_DAY = 86_400_000;

function pad(n: number, width = 2): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

/** Python `date`: a calendar day without time. */
export class PyDate {
  constructor(
    readonly year: number,
    readonly month: number,
    readonly day: number,
  ) {}

  /** Days since 1970-01-01. */
  ordinal(): number {
    return Math.floor(Date.UTC(this.year, this.month - 1, this.day) / MS_PER_DAY);
  }
  /** Monday = 0 … Sunday = 6, as Python's weekday(). */
  weekday(): number {
    return (new Date(Date.UTC(this.year, this.month - 1, this.day)).getUTCDay() + 6) % 7;
  }
  isoformat(): string {
    return `${pad(this.year, 4)}-${pad(this.month)}-${pad(this.day)}`;
  }
  toString(): string {
    return this.isoformat();
  }
  static fromOrdinal(days: number): PyDate {
    const d = new Date(days * MS_PER_DAY);
    return new PyDate(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  }
}

/** Python `datetime`: wall-clock time (ms + extra µs) and an offset in minutes (null = naive). */
export class PyDateTime extends PyDate {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  /** 0..999999 */
  readonly microsecond: number;

  constructor(
    readonly wallMs: number,
    readonly extraMicros: number,
    readonly offsetMinutes: number | null,
  ) {
    const d = new Date(wallMs);
    if (Number.isNaN(d.getTime())) throw new RangeError('datetime out of range');
    super(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
    this.hour = d.getUTCHours();
    this.minute = d.getUTCMinutes();
    this.second = d.getUTCSeconds();
    this.microsecond = d.getUTCMilliseconds() * 1000 + extraMicros;
  }

  /** An aware UTC datetime from a JS Date. */
  static fromDate(date: Date): PyDateTime {
    return new PyDateTime(date.getTime(), 0, 0);
  }
  /** Builds from fields; `offsetMinutes` null for a naive value. */
  static of(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, us = 0, offsetMinutes: number | null = null): PyDateTime {
    const t = new Date(0);
    t.setUTCFullYear(y, mo - 1, d);
    t.setUTCHours(h, mi, s, Math.floor(us / 1000));
    return new PyDateTime(t.getTime(), us % 1000, offsetMinutes);
  }
  /** Milliseconds of the UTC instant (naive values are taken as UTC, as the reference's servers run in UTC). */
  utcMs(): number {
    return this.wallMs - (this.offsetMinutes ?? 0) * 60_000;
  }
  /** Python timestamp(): epoch seconds as a float number. */
  timestamp(): number {
    return this.utcMs() / 1000 + this.extraMicros / 1e6;
  }
  withOffset(offsetMinutes: number | null): PyDateTime {
    return new PyDateTime(this.wallMs, this.extraMicros, offsetMinutes);
  }
  /** Converts to another offset keeping the instant (astimezone). */
  toOffset(offsetMinutes: number): PyDateTime {
    return new PyDateTime(this.utcMs() + offsetMinutes * 60_000, this.extraMicros, offsetMinutes);
  }
  /** Adds microseconds (bigint to stay exact). */
  plusMicros(us: bigint): PyDateTime {
    const total = BigInt(this.wallMs) * 1000n + BigInt(this.extraMicros) + us;
    const ms = total / 1000n - (total % 1000n < 0n ? 1n : 0n);
    const rest = Number(total - ms * 1000n);
    return new PyDateTime(Number(ms), rest, this.offsetMinutes);
  }
  /** Microseconds since epoch of the instant. */
  epochMicros(): bigint {
    return BigInt(this.utcMs()) * 1000n + BigInt(this.extraMicros);
  }
  compare(other: PyDateTime): number {
    const a = this.epochMicros();
    const b = other.epochMicros();
    return a < b ? -1 : a > b ? 1 : 0;
  }
  date(): PyDate {
    return new PyDate(this.year, this.month, this.day);
  }
  offsetText(colon: boolean): string {
    if (this.offsetMinutes === null) return '';
    const sign = this.offsetMinutes < 0 ? '-' : '+';
    const abs = Math.abs(this.offsetMinutes);
    return `${sign}${pad(Math.floor(abs / 60))}${colon ? ':' : ''}${pad(abs % 60)}`;
  }
  isoformat(sep = 'T'): string {
    const frac = this.microsecond ? `.${pad(this.microsecond, 6)}` : '';
    return `${super.isoformat()}${sep}${pad(this.hour)}:${pad(this.minute)}:${pad(this.second)}${frac}${this.offsetText(true)}`;
  }
  toString(): string {
    return this.isoformat(' ');
  }
  repr(): string {
    const parts = [this.year, this.month, this.day, this.hour, this.minute];
    if (this.second || this.microsecond) parts.push(this.second);
    if (this.microsecond) parts.push(this.microsecond);
    const tz =
      this.offsetMinutes === null
        ? ''
        : this.offsetMinutes === 0
          ? ', tzinfo=datetime.timezone.utc'
          : `, tzinfo=datetime.timezone(${this.offsetText(true)})`;
    return `datetime.datetime(${parts.join(', ')}${tz})`;
  }
}

/** Python `timedelta`, exact in microseconds. */
export class PyTimedelta {
  constructor(readonly micros: bigint) {}

  static fromParts(days: number, seconds = 0, micros = 0): PyTimedelta {
    const total = days * 86_400e6 + seconds * 1e6 + micros;
    return new PyTimedelta(BigInt(Math.round(total)));
  }
  totalMicroseconds(): bigint {
    return this.micros;
  }
  get days(): number {
    const d = 86_400_000_000n;
    const q = this.micros / d;
    return Number(this.micros % d < 0n ? q - 1n : q);
  }
  get seconds(): number {
    return Number((this.micros - BigInt(this.days) * 86_400_000_000n) / 1_000_000n);
  }
  get microseconds(): number {
    return Number((this.micros - BigInt(this.days) * 86_400_000_000n) % 1_000_000n);
  }
  totalSeconds(): number {
    return Number(this.micros) / 1e6;
  }
  toString(): string {
    const d = this.days;
    let s = this.seconds;
    const us = this.microseconds;
    const h = Math.floor(s / 3600);
    s -= h * 3600;
    const m = Math.floor(s / 60);
    s -= m * 60;
    const head = d !== 0 ? `${d} day${Math.abs(d) !== 1 ? 's' : ''}, ` : '';
    return `${head}${h}:${pad(m)}:${pad(s)}${us ? `.${pad(us, 6)}` : ''}`;
  }
  repr(): string {
    const parts: string[] = [];
    if (this.days) parts.push(`days=${this.days}`);
    if (this.seconds) parts.push(`seconds=${this.seconds}`);
    if (this.microseconds) parts.push(`microseconds=${this.microseconds}`);
    return `datetime.timedelta(${parts.join(', ')})`;
  }
}

/** isodate's calendar Duration (years/months plus a timedelta), produced by duration('P1M'). */
export class PyDuration {
  constructor(
    readonly years: number,
    readonly months: number,
    readonly delta: PyTimedelta,
  ) {}

  toString(): string {
    const parts: string[] = [];
    if (this.years) parts.push(`${this.years} year${Math.abs(this.years) === 1 ? '' : 's'}`);
    if (this.months) parts.push(`${this.months} month${this.months <= 1 ? '' : 's'}`);
    parts.push(this.delta.toString());
    return parts.join(', ');
  }
  /** Applies this duration to a datetime (sign = 1 to add, -1 to subtract); day clamps to month end. */
  applyTo(dt: PyDateTime, sign: 1 | -1): PyDateTime {
    const totalMonths = dt.year * 12 + (dt.month - 1) + sign * (this.years * 12 + this.months);
    const year = Math.floor(totalMonths / 12);
    const month = totalMonths - year * 12 + 1;
    const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
    const moved = PyDateTime.of(year, month, Math.min(dt.day, lastDay), dt.hour, dt.minute, dt.second, dt.microsecond, dt.offsetMinutes);
    return moved.plusMicros(BigInt(sign) * this.delta.micros);
  }
}

/** Parses an ISO 8601 duration (`P1D`, `PT1H30M`, `P1Y2M`, `P2W`, `-P1D`) as isodate does. */
export function parseIsoDuration(text: string): PyTimedelta | PyDuration {
  const m =
    /^([+-])?P(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/.exec(
      text,
    );
  if (!m || text === 'P' || text.endsWith('T') || /^[+-]?P$/.test(text)) throw new RangeError(`Unable to parse duration string '${text}'`);
  const num = (s: string | undefined): number => (s === undefined ? 0 : Number(s.replace(',', '.')));
  const sign = m[1] === '-' ? -1 : 1;
  const years = num(m[2]);
  const months = num(m[3]);
  const days = num(m[4]) * 7 + num(m[5]);
  const seconds = num(m[6]) * 3600 + num(m[7]) * 60 + num(m[8]);
  const delta = PyTimedelta.fromParts(sign * days, sign * seconds);
  if (years || months) return new PyDuration(sign * years, sign * months, delta);
  return delta;
}
