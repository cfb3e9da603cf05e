package io.thriftbq.ingest.format;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.apache.beam.sdk.coders.RowCoder;
import org.apache.beam.sdk.schemas.Schema;
import org.apache.beam.sdk.schemas.SchemaCoder;
import org.apache.beam.sdk.transforms.SerializableFunction;
import org.apache.beam.sdk.values.Row;
import org.apache.beam.sdk.values.TypeDescriptor;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The coder of the BEAM_ROW elements handed to BigQueryIO when the payload is kept: a {@link
 * SchemaCoder}, because {@code useBeamSchema()} needs its input to have a schema (it derives the
 * table schema from it and reads each element's Row through {@link #getToRowFunction()}), but one
 * that encodes the whole {@link RowWithPayload}, payload and metadata included, with {@link
 * RowWithPayloadCoder}. A plain {@code SchemaCoder} would encode only the Row and silently drop the
 * payload wherever an element is encoded, for example in the streaming-inserts write shuffle.
 *
 * <p>Why this is sound: BigQueryIO uses the input's coder as the element coder of its shuffles and
 * never rebuilds elements from Rows; runners look up coder translations by exact class, so this
 * subclass is shipped as the serialized Java coder it is (only {@link RowCoder} has a portable
 * "row" encoding), and its {@link #encode}/{@link #decode} are what run. Rebuilding an element from
 * a Row alone would lose the payload, so {@link #getFromRowFunction()} refuses loudly instead of
 * returning elements without it.
 */
final class RowWithPayloadSchemaCoder extends SchemaCoder<RowWithPayload<Row>> {
  private static final long serialVersionUID = 1L;

  private final RowWithPayloadCoder<Row> elementCoder;

  private RowWithPayloadSchemaCoder(Schema schema) {
    super(schema, elementType(), new ToRow(), new NoFromRow());
    this.elementCoder = RowWithPayloadCoder.of(RowCoder.of(schema));
  }

  static RowWithPayloadSchemaCoder forSchema(Schema schema) {
    return new RowWithPayloadSchemaCoder(schema);
  }

  private static TypeDescriptor<RowWithPayload<Row>> elementType() {
    return new TypeDescriptor<RowWithPayload<Row>>() {};
  }

  @Override
  public void encode(RowWithPayload<Row> value, OutputStream out) throws IOException {
    elementCoder.encode(value, out);
  }

  @Override
  public RowWithPayload<Row> decode(InputStream in) throws IOException {
    return elementCoder.decode(in);
  }

  @Override
  public void verifyDeterministic() throws NonDeterministicException {
    elementCoder.verifyDeterministic();
  }

  @Override
  public boolean consistentWithEquals() {
    return false;
  }

  @Override
  public boolean equals(@Nullable Object other) {
    return other instanceof RowWithPayloadSchemaCoder that && schema.equals(that.schema);
  }

  @Override
  public int hashCode() {
    return schema.hashCode() * 31 + RowWithPayloadSchemaCoder.class.getName().hashCode();
  }

  @Override
  public String toString() {
    return "RowWithPayloadSchemaCoder<" + schema + ">";
  }

  private static final class ToRow implements SerializableFunction<RowWithPayload<Row>, Row> {
    private static final long serialVersionUID = 1L;

    @Override
    public Row apply(RowWithPayload<Row> element) {
      return element.row();
    }
  }

  private static final class NoFromRow implements SerializableFunction<Row, RowWithPayload<Row>> {
    private static final long serialVersionUID = 1L;

    @Override
    public RowWithPayload<Row> apply(Row row) {
      throw new UnsupportedOperationException(
          "A Row alone cannot become a RowWithPayload: it would lose the payload that"
              + " --keepPayloadForWriteFailures keeps. Decode elements with this coder instead.");
    }
  }
}
