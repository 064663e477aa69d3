/**
 * PostgreSQL's binary COPY format, for the column types of snapshot rows. A rollup writes ~200k
 * rows that are mostly numbers: in the text format each number first becomes its decimal text,
 * and `String(number)` was the largest single cost of the rollup's writes on its Node thread; here
 * it is 4 or 8 bytes put into a buffer.
 *
 * Layout: a signature, flags and header extension; per row, its field count, then each field's byte
 * length (-1 for NULL) and bytes in network order; a field count of -1 ends the data.
 */

export const BINARY_TYPES = ["int", "float8", "text", "int[]"] as const;
export type BinaryType = (typeof BINARY_TYPES)[number];

export const isBinaryType = (type: string): type is BinaryType =>
  (BINARY_TYPES as readonly string[]).includes(type);

const SIGNATURE = Buffer.from("PGCOPY\n\xff\r\n\0", "latin1");
const INT4_OID = 23;
const INT4_MIN = -(2 ** 31);
const INT4_MAX = 2 ** 31 - 1;

const asInt4 = (value: unknown): number => {
  if (typeof value !== "number" || !Number.isInteger(value) || value < INT4_MIN || value > INT4_MAX)
    throw new TypeError(`bulkInsert: ${String(value)} is not a 32-bit integer`);
  return value;
};

/** Encodes rows of fixed column types; hands the bytes out in blocks as they fill. */
export class BinaryCopyEncoder {
  private buffer: Buffer;
  private offset = 0;

  constructor(
    private readonly types: readonly BinaryType[],
    private readonly blockSize: number,
  ) {
    this.buffer = Buffer.allocUnsafe(blockSize * 2);
    SIGNATURE.copy(this.buffer, 0);
    this.offset = SIGNATURE.length;
    this.int32(0); // flags
    this.int32(0); // header extension length
  }

  row(values: readonly unknown[]): void {
    if (values.length !== this.types.length)
      throw new TypeError(`bulkInsert: a row of ${values.length} values for ${this.types.length} columns`);
    this.ensure(2);
    this.buffer.writeInt16BE(values.length, this.offset);
    this.offset += 2;
    for (let i = 0; i < values.length; i++) this.field(this.types[i] as BinaryType, values[i]);
  }

  /** The bytes encoded so far once they fill a block (the next rows go to a new buffer). */
  takeFullBlock(): Buffer | undefined {
    return this.offset >= this.blockSize ? this.take() : undefined;
  }

  /** The last bytes, with the end-of-data marker. */
  end(): Buffer {
    this.ensure(2);
    this.buffer.writeInt16BE(-1, this.offset);
    this.offset += 2;
    return this.take();
  }

  private take(): Buffer {
    const bytes = this.buffer.subarray(0, this.offset);
    this.buffer = Buffer.allocUnsafe(this.blockSize * 2);
    this.offset = 0;
    return bytes;
  }

  private field(type: BinaryType, value: unknown) {
    if (value === null || value === undefined) {
      this.int32(-1);
      return;
    }
    switch (type) {
      case "int":
        this.int32(4);
        this.int32(asInt4(value));
        return;
      case "float8":
        if (typeof value !== "number") throw new TypeError(`bulkInsert: ${String(value)} is not a number`);
        this.int32(8);
        this.ensure(8);
        this.buffer.writeDoubleBE(value, this.offset);
        this.offset += 8;
        return;
      case "text":
        this.text(String(value));
        return;
      case "int[]":
        this.intArray(value);
        return;
    }
  }

  private text(value: string) {
    // At most three bytes of UTF-8 per UTF-16 code unit.
    this.ensure(4 + value.length * 3);
    const length = this.buffer.write(value, this.offset + 4, "utf8");
    this.buffer.writeInt32BE(length, this.offset);
    this.offset += 4 + length;
  }

  /** A one-dimensional int4 array without nulls: dimensions, flags, element type, then elements. */
  private intArray(value: unknown) {
    if (!Array.isArray(value)) throw new TypeError("bulkInsert: an int[] column takes an array");
    const elements = value.map(asInt4);
    const header = elements.length === 0 ? 12 : 20;
    this.int32(header + elements.length * 8);
    this.int32(elements.length === 0 ? 0 : 1);
    this.int32(0);
    this.int32(INT4_OID);
    if (elements.length === 0) return;
    this.int32(elements.length);
    this.int32(1);
    for (const element of elements) {
      this.int32(4);
      this.int32(element);
    }
  }

  private int32(value: number) {
    this.ensure(4);
    this.buffer.writeInt32BE(value, this.offset);
    this.offset += 4;
  }

  private ensure(bytes: number) {
    if (this.offset + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.offset + bytes));
    this.buffer.copy(grown, 0, 0, this.offset);
    this.buffer = grown;
  }
}
