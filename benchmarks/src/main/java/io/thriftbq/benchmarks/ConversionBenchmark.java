package io.thriftbq.benchmarks;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.Descriptors.Descriptor;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EncodedRow;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.sample.Event;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.io.gcp.bigquery.AvroGenericRecordToStorageApiProto;
import org.apache.beam.sdk.io.gcp.bigquery.BeamRowToStorageApiProto;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowToStorageApiProto;
import org.apache.beam.sdk.values.Row;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Per-core cost of the ingestion hot path on a fixed corpus of sample events: Thrift bytes → each
 * format, each format → the protobuf bytes the Storage Write API sends (Beam's own converters, as
 * the sink calls them; for PROTO_MESSAGE the row's bytes, which is all writeProtos asks for), the
 * whole path, and the floor (Thrift decode into the generated object).
 *
 * <p>Each format has its own state, so a benchmark's JVM (one fork each) builds and runs only the
 * converter it measures, as a worker does: running every format in one JVM would make the shared
 * decoding code's call sites polymorphic and slow all of them down.
 *
 * <p>Each invocation processes the whole corpus, so the score is events per second; multiply by the
 * mean event size (printed at setup) for bytes per second. See benchmarks/RESULTS.md.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Threads(1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@OperationsPerInvocation(SampleCorpus.SIZE)
public class ConversionBenchmark {
  private static final EventMetadata METADATA = EventMetadata.EMPTY;

  /** The serialized events, and what Beam's sink derives once per destination. */
  @State(Scope.Thread)
  public static class Corpus {
    byte[][] events;
    ConverterConfig config;
    Descriptor descriptor;
    TableRowToStorageApiProto.SchemaInformation schemaInformation;

    @Setup
    public void setUp() throws Exception {
      events = SampleCorpus.serializedSampleEvents(ThriftProtocol.BINARY);
      config =
          ConverterConfig.of(Event.class.getName(), ThriftProtocol.BINARY, MetadataColumns.NONE);
      EventSchemas schemas = EventSchemas.of(Event.class.getName(), MetadataColumns.NONE);
      descriptor =
          TableRowToStorageApiProto.getDescriptorFromTableSchema(
              schemas.tableSchema(), true, false);
      schemaInformation =
          TableRowToStorageApiProto.SchemaInformation.fromTableSchema(
              TableRowToStorageApiProto.schemaToProtoTableSchema(schemas.tableSchema()));
      System.out.printf(
          "%ncorpus: %d events, mean %.1f bytes%n", events.length, SampleCorpus.meanSize(events));
    }
  }

  @State(Scope.Thread)
  public static class TableRows {
    EventConverter<TableRow> converter;
    TableRow[] rows;

    @Setup
    public void setUp(Corpus corpus) throws Exception {
      converter = EventConverters.tableRows(corpus.config);
      rows = new TableRow[corpus.events.length];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = converter.fromBytes(corpus.events[i], METADATA);
      }
    }
  }

  @State(Scope.Thread)
  public static class BeamRows {
    EventConverter<Row> converter;
    Row[] rows;

    @Setup
    public void setUp(Corpus corpus) throws Exception {
      converter = EventConverters.beamRows(corpus.config);
      rows = new Row[corpus.events.length];
      for (int i = 0; i < rows.length; i++) {
        rows[i] = converter.fromBytes(corpus.events[i], METADATA);
      }
    }
  }

  @State(Scope.Thread)
  public static class GenericRecords {
    EventConverter<GenericRecord> converter;
    GenericRecord[] records;

    @Setup
    public void setUp(Corpus corpus) throws Exception {
      converter = EventConverters.genericRecords(corpus.config);
      records = new GenericRecord[corpus.events.length];
      for (int i = 0; i < records.length; i++) {
        records[i] = converter.fromBytes(corpus.events[i], METADATA);
      }
      System.out.printf(
          "mean %.1f scalar values per event%n", SampleCorpus.meanScalarValues(records));
    }
  }

  @State(Scope.Thread)
  public static class ProtoMessages {
    EventConverter<EncodedRow> converter;
    EncodedRow[] messages;

    @Setup
    public void setUp(Corpus corpus) throws Exception {
      converter = EventConverters.encodedRows(corpus.config);
      messages = new EncodedRow[corpus.events.length];
      for (int i = 0; i < messages.length; i++) {
        messages[i] = converter.fromBytes(corpus.events[i], METADATA);
      }
    }
  }

  /** PROTO_MESSAGE through the codec tree alone: what the row would cost without the one pass. */
  @State(Scope.Thread)
  public static class ProtoMessagesThroughCodecTree {
    EventConverter<EncodedRow> converter;

    @Setup
    public void setUp(Corpus corpus) {
      converter = EventConverters.encodedRowsThroughCodecTree(corpus.config);
    }
  }

  // ---- the floor -------------------------------------------------------------------------------

  @Benchmark
  public void thriftDecodeOnly(Corpus corpus, TableRows format, Blackhole blackhole)
      throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.decode(payload));
    }
  }

  // ---- Thrift bytes → format object ------------------------------------------------------------

  @Benchmark
  public void bytesToTableRow(Corpus corpus, TableRows format, Blackhole blackhole)
      throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromBytes(payload, METADATA));
    }
  }

  @Benchmark
  public void bytesToBeamRow(Corpus corpus, BeamRows format, Blackhole blackhole)
      throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromBytes(payload, METADATA));
    }
  }

  @Benchmark
  public void bytesToGenericRecord(Corpus corpus, GenericRecords format, Blackhole blackhole)
      throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromBytes(payload, METADATA));
    }
  }

  @Benchmark
  public void bytesToProtoMessage(Corpus corpus, ProtoMessages format, Blackhole blackhole)
      throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromBytes(payload, METADATA));
    }
  }

  // ---- the object path (as with a user function): decode into the generated class, then convert
  // it. It shows what decoding straight into the format saves over the usual decode-then-convert.

  @Benchmark
  public void objectPathTableRow(Corpus corpus, TableRows format, Blackhole blackhole)
      throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromEvent(format.converter.decode(payload), METADATA));
    }
  }

  @Benchmark
  public void objectPathBeamRow(Corpus corpus, BeamRows format, Blackhole blackhole)
      throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromEvent(format.converter.decode(payload), METADATA));
    }
  }

  @Benchmark
  public void objectPathGenericRecord(Corpus corpus, GenericRecords format, Blackhole blackhole)
      throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromEvent(format.converter.decode(payload), METADATA));
    }
  }

  @Benchmark
  public void objectPathProtoMessage(Corpus corpus, ProtoMessages format, Blackhole blackhole)
      throws ThriftDecodeException {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromEvent(format.converter.decode(payload), METADATA));
    }
  }

  // ---- format object → Storage Write API proto bytes (what the sink does per element) ----------

  @Benchmark
  public void tableRowToProto(Corpus corpus, TableRows format, Blackhole blackhole)
      throws Exception {
    for (TableRow row : format.rows) {
      blackhole.consume(tableRowProto(corpus, row));
    }
  }

  @Benchmark
  public void beamRowToProto(Corpus corpus, BeamRows format, Blackhole blackhole) {
    for (Row row : format.rows) {
      blackhole.consume(beamRowProto(corpus, row));
    }
  }

  @Benchmark
  public void genericRecordToProto(Corpus corpus, GenericRecords format, Blackhole blackhole) {
    for (GenericRecord record : format.records) {
      blackhole.consume(avroProto(corpus, record));
    }
  }

  /** PROTO_MESSAGE: writeProtos only asks the row for its bytes, which it already holds. */
  @Benchmark
  public void protoMessageToProto(ProtoMessages format, Blackhole blackhole) {
    for (EncodedRow message : format.messages) {
      blackhole.consume(message.toByteArray());
    }
  }

  // ---- the whole path: Thrift bytes → format → proto bytes ------------------------------------

  @Benchmark
  public void wholePathTableRow(Corpus corpus, TableRows format, Blackhole blackhole)
      throws Exception {
    for (byte[] payload : corpus.events) {
      blackhole.consume(tableRowProto(corpus, format.converter.fromBytes(payload, METADATA)));
    }
  }

  @Benchmark
  public void wholePathBeamRow(Corpus corpus, BeamRows format, Blackhole blackhole)
      throws Exception {
    for (byte[] payload : corpus.events) {
      blackhole.consume(beamRowProto(corpus, format.converter.fromBytes(payload, METADATA)));
    }
  }

  @Benchmark
  public void wholePathGenericRecord(Corpus corpus, GenericRecords format, Blackhole blackhole)
      throws Exception {
    for (byte[] payload : corpus.events) {
      blackhole.consume(avroProto(corpus, format.converter.fromBytes(payload, METADATA)));
    }
  }

  @Benchmark
  public void wholePathProtoMessage(Corpus corpus, ProtoMessages format, Blackhole blackhole)
      throws Exception {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromBytes(payload, METADATA).toByteArray());
    }
  }

  /**
   * {@link #wholePathProtoMessage} without the one-pass writer: the same bytes by the codec tree,
   * the schema walk every other format uses. The ratio of the two is why the one-pass writer, a
   * second walk, exists (docs/ARCHITECTURE.md).
   */
  @Benchmark
  public void wholePathProtoMessageCodecTree(
      Corpus corpus, ProtoMessagesThroughCodecTree format, Blackhole blackhole) throws Exception {
    for (byte[] payload : corpus.events) {
      blackhole.consume(format.converter.fromBytes(payload, METADATA).toByteArray());
    }
  }

  private static byte[] tableRowProto(Corpus corpus, TableRow row) throws Exception {
    return TableRowToStorageApiProto.messageFromTableRow(
            corpus.schemaInformation, corpus.descriptor, row, false, false, null, null, -1)
        .toByteArray();
  }

  private static byte[] beamRowProto(Corpus corpus, Row row) {
    return BeamRowToStorageApiProto.messageFromBeamRow(corpus.descriptor, row, null, -1)
        .toByteArray();
  }

  private static byte[] avroProto(Corpus corpus, GenericRecord record) {
    return AvroGenericRecordToStorageApiProto.messageFromGenericRecord(
            corpus.descriptor, record, null, -1)
        .toByteArray();
  }
}
