/**
 * PostgreSQL's binary COPY format, for the column types of snapshot rows. A rollup writes ~200k
 * rows that are mostly numbers: in the text format each number first becomes its decimal text,
 * and `String(number)` was the largest single cost of the rollup's writes on its Node thread; here
 * it is 4 or 8 bytes put into a buffer.
 *
 * Layout: a signature, flags and header extension; per row, its field count, then each field's byte
 * length (-1 for NULL) and bytes in network order; a field count of -1 ends the data.
 */

/** Writes a row's fields in column order, each named with its column (written tables, bulk-insert.ts). */
export type FieldWriter<Column extends string = string> = {
  int(column: Column, value: number | null): void;
  float8(column: Column, value: number | null): void;
  text(column: Column, value: string | null): void;
  intArray(column: Column, value: readonly number[] | null): void;
};

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
const INT4_OID = 23;
/** PostgreSQL's epoch for binary dates and timestamps. */
const PG_EPOCH_MS = Date.UTC(2000, 0, 1);
const INT4_MIN = -(2 ** 31);
const INT4_MAX = 2 ** 31 - 1;

const asInt4 = (value: number): number => {
  if (!Number.isInteger(value) || value < INT4_MIN || value > INT4_MAX)
    throw new TypeError(`bulkInsert: ${String(value)} is not a 32-bit integer`);
  return value;
};

/** Encodes rows written field by field; hands the bytes out in blocks as they fill. */
export class BinaryCopyEncoder implements FieldWriter {
  private buffer!: Buffer;
  private view!: DataView;
  private offset = 0;

  /**
   * `allocate` gives each block's buffer (of `blockSize` + 16 KiB bytes): a caller that writes many
   * batches passes buffers it takes back once a batch is written (the importer, import-events.ts).
   */
  constructor(
    private readonly blockSize: number,
    private readonly allocate: (size: number) => Buffer = Buffer.allocUnsafe,
  ) {
    this.fresh();
    SIGNATURE.copy(this.buffer, 0);
    this.offset = SIGNATURE.length;
    this.int32(0); // flags
    this.int32(0); // header extension length
  }

  /** Starts a row of `fields` fields; the row's fields follow, in column order. */
  beginRow(fields: number): void {
    this.ensure(2);
    this.view.setInt16(this.offset, fields);
    this.offset += 2;
  }

  int(_column: string, value: number | null): void {
    if (this.wroteNull(value)) return;
    this.int32(4);
    this.int32(asInt4(value));
  }

  float8(_column: string, value: number | null): void {
    if (this.wroteNull(value)) return;
    this.int32(8);
    this.ensure(8);
    this.view.setFloat64(this.offset, value);
    this.offset += 8;
  }

  text(_column: string, value: string | null): void {
    if (this.wroteNull(value)) return;
    // At most three bytes of UTF-8 per UTF-16 code unit.
    this.ensure(4 + value.length * 3);
    const length = this.buffer.write(value, this.offset + 4, "utf8");
    this.view.setInt32(this.offset, length);
    this.offset += 4 + length;
  }

  /** A one-dimensional int4 array without nulls: dimensions, flags, element type, then elements. */
  intArray(_column: string, value: readonly number[] | null): void {
    if (this.wroteNull(value)) return;
    const header = value.length === 0 ? 12 : 20;
    this.int32(header + value.length * 8);
    this.int32(value.length === 0 ? 0 : 1);
    this.int32(0);
    this.int32(INT4_OID);
    if (value.length === 0) return;
    this.int32(value.length);
    this.int32(1);
    for (const element of value) {
      this.int32(4);
      this.int32(asInt4(element));
    }
  }

  /** A `timestamptz` from an ISO instant: microseconds since 2000-01-01 UTC, as an int8. */
  timestamptz(_column: string, iso: string | null): void {
    if (this.wroteNull(iso)) return;
    const micros = (Date.parse(iso) - PG_EPOCH_MS) * 1000;
    const high = Math.floor(micros / 2 ** 32);
    this.int32(8);
    this.int32(high);
    this.ensure(4);
    this.view.setUint32(this.offset, micros - high * 2 ** 32);
    this.offset += 4;
  }

  /** A `date` from `YYYY-MM-DD`: days since 2000-01-01, as an int4. */
  date(_column: string, day: string | null): void {
    if (this.wroteNull(day)) return;
    this.int32(4);
    this.int32(Math.round((Date.parse(day) - PG_EPOCH_MS) / 86_400_000));
  }

  /** A `uuid` from its 32 hex digits (dashes allowed): its 16 bytes. */
  uuid(_column: string, hex: string | null): void {
    if (this.wroteNull(hex)) return;
    const digits = hex.length === 32 ? hex : hex.replaceAll("-", "");
    this.int32(16);
    this.ensure(16);
    if (this.buffer.write(digits, this.offset, 16, "hex") !== 16) throw new TypeError(`not a UUID: ${hex}`);
    this.offset += 16;
  }

  /** The bytes encoded so far once they fill a block (the next rows go to a new buffer). */
  takeFullBlock(): Buffer | undefined {
    if (this.offset < this.blockSize) return undefined;
    const bytes = this.buffer.subarray(0, this.offset);
    this.fresh();
    return bytes;
  }

  /** The last bytes, with the end-of-data marker. */
  end(): Buffer {
    this.ensure(2);
    this.view.setInt16(this.offset, -1);
    this.offset += 2;
    return this.buffer.subarray(0, this.offset);
  }

  /** Writes a NULL field (length -1) when `value` is null. */
  private wroteNull(value: unknown): value is null {
    if (value !== null) return false;
    this.int32(-1);
    return true;
  }

  private fresh() {
    // A block is handed out once it holds blockSize bytes: room for one more row of usual size,
    // not twice the block (a longer row grows the buffer). Blocks wait in memory until their
    // batch is written, so their slack is an import's memory.
    this.buffer = this.allocate(this.blockSize + 16 * 1024);
    this.view = new DataView(this.buffer.buffer, this.buffer.byteOffset, this.buffer.length);
    this.offset = 0;
  }

  private int32(value: number) {
    this.ensure(4);
    this.view.setInt32(this.offset, value);
    this.offset += 4;
  }

  private ensure(bytes: number) {
    if (this.offset + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.offset + bytes));
    this.buffer.copy(grown, 0, 0, this.offset);
    this.buffer = grown;
    this.view = new DataView(grown.buffer, grown.byteOffset, grown.length);
  }
}
