package io.thriftbq.benchmarks;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.Descriptors.Descriptor;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.convert.ConverterConfig;
import io.thriftbq.ingest.convert.EventConverter;
import io.thriftbq.ingest.convert.EventConverters;
import io.thriftbq.ingest.convert.EventMetadata;
import io.thriftbq.ingest.convert.MetadataColumns;
import io.thriftbq.ingest.convert.ThriftDecodeException;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.sample.Event;
import io.thriftbq.sample.proto.EventRow;
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
 * the sink calls them), the whole path, and the floor (Thrift decode into the generated object).
 *
 * <p>Each invocation processes the whole corpus, so the score is events per second; multiply by the
 * mean event size (printed at setup) for bytes per second. See benchmarks/RESULTS.md.
 */
@State(Scope.Thread)
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

  private byte[][] corpus;
  private EventConverter<TableRow> tableRows;
  private EventConverter<Row> rows;
  private EventConverter<GenericRecord> records;
  private EventConverter<EventRow> messages;
  private TableRow[] tableRowCorpus;
  private Row[] rowCorpus;
  private GenericRecord[] recordCorpus;
  private EventRow[] messageCorpus;
  private Descriptor descriptor;
  private TableRowToStorageApiProto.SchemaInformation schemaInformation;

  @Setup
  public void setUp() throws Exception {
    corpus = SampleCorpus.serializedSampleEvents(ThriftProtocol.BINARY);
    ConverterConfig config =
        ConverterConfig.of(Event.class.getName(), ThriftProtocol.BINARY, MetadataColumns.NONE);
    tableRows = EventConverters.create(config, StorageFormat.TABLE_ROW);
    rows = EventConverters.create(config, StorageFormat.BEAM_ROW);
    records = EventConverters.create(config, StorageFormat.AVRO_GENERIC_RECORD);
    messages =
        EventConverters.create(
            config.withProtoClassName(EventRow.class.getName()), StorageFormat.PROTO_MESSAGE);
    EventSchemas schemas = EventSchemas.of(Event.class.getName(), MetadataColumns.NONE);
    // The descriptor and schema information are what Beam's sink derives once per destination.
    descriptor =
        TableRowToStorageApiProto.getDescriptorFromTableSchema(schemas.tableSchema(), true, false);
    schemaInformation =
        TableRowToStorageApiProto.SchemaInformation.fromTableSchema(
            TableRowToStorageApiProto.schemaToProtoTableSchema(schemas.tableSchema()));
    tableRowCorpus = new TableRow[corpus.length];
    rowCorpus = new Row[corpus.length];
    recordCorpus = new GenericRecord[corpus.length];
    messageCorpus = new EventRow[corpus.length];
    for (int i = 0; i < corpus.length; i++) {
      tableRowCorpus[i] = tableRows.fromBytes(corpus[i], METADATA);
      rowCorpus[i] = rows.fromBytes(corpus[i], METADATA);
      recordCorpus[i] = records.fromBytes(corpus[i], METADATA);
      messageCorpus[i] = messages.fromBytes(corpus[i], METADATA);
    }
    System.out.printf(
        "%ncorpus: %d events, mean %.1f bytes, mean %.1f scalar values%n",
        corpus.length, SampleCorpus.meanSize(corpus), SampleCorpus.meanScalarValues(recordCorpus));
  }

  // ---- the floor -------------------------------------------------------------------------------

  @Benchmark
  public void thriftDecodeOnly(Blackhole blackhole) throws ThriftDecodeException {
    for (byte[] payload : corpus) {
      blackhole.consume(tableRows.decode(payload));
    }
  }

  // ---- Thrift bytes → format object ------------------------------------------------------------

  @Benchmark
  public void bytesToTableRow(Blackhole blackhole) throws ThriftDecodeException {
    for (byte[] payload : corpus) {
      blackhole.consume(tableRows.fromBytes(payload, METADATA));
    }
  }

  @Benchmark
  public void bytesToBeamRow(Blackhole blackhole) throws ThriftDecodeException {
    for (byte[] payload : corpus) {
      blackhole.consume(rows.fromBytes(payload, METADATA));
    }
  }

  @Benchmark
  public void bytesToGenericRecord(Blackhole blackhole) throws ThriftDecodeException {
    for (byte[] payload : corpus) {
      blackhole.consume(records.fromBytes(payload, METADATA));
    }
  }

  @Benchmark
  public void bytesToProtoMessage(Blackhole blackhole) throws ThriftDecodeException {
    for (byte[] payload : corpus) {
      blackhole.consume(messages.fromBytes(payload, METADATA));
    }
  }

  // ---- the object path (as with a user function): decode into the generated class, then convert
  // it. It shows what decoding straight into the format saves over the usual decode-then-convert.

  @Benchmark
  public void objectPathTableRow(Blackhole blackhole) throws ThriftDecodeException {
    for (byte[] payload : corpus) {
      blackhole.consume(tableRows.fromEvent(tableRows.decode(payload), METADATA));
    }
  }

  @Benchmark
  public void objectPathBeamRow(Blackhole blackhole) throws ThriftDecodeException {
    for (byte[] payload : corpus) {
      blackhole.consume(rows.fromEvent(rows.decode(payload), METADATA));
    }
  }

  @Benchmark
  public void objectPathGenericRecord(Blackhole blackhole) throws ThriftDecodeException {
    for (byte[] payload : corpus) {
      blackhole.consume(records.fromEvent(records.decode(payload), METADATA));
    }
  }

  // ---- format object → Storage Write API proto bytes (Beam's converters) ---------------------

  @Benchmark
  public void tableRowToProto(Blackhole blackhole) throws Exception {
    for (TableRow row : tableRowCorpus) {
      blackhole.consume(tableRowProto(row));
    }
  }

  @Benchmark
  public void beamRowToProto(Blackhole blackhole) {
    for (Row row : rowCorpus) {
      blackhole.consume(
          BeamRowToStorageApiProto.messageFromBeamRow(descriptor, row, null, -1).toByteArray());
    }
  }

  @Benchmark
  public void genericRecordToProto(Blackhole blackhole) {
    for (GenericRecord record : recordCorpus) {
      blackhole.consume(avroProto(record));
    }
  }

  /** PROTO_MESSAGE: the sink's whole conversion is the generated message's own serializer. */
  @Benchmark
  public void protoMessageToProto(Blackhole blackhole) {
    for (EventRow message : messageCorpus) {
      blackhole.consume(message.toByteArray());
    }
  }

  // ---- the whole path: Thrift bytes → format → proto bytes ------------------------------------

  @Benchmark
  public void wholePathProtoMessage(Blackhole blackhole) throws Exception {
    for (byte[] payload : corpus) {
      blackhole.consume(messages.fromBytes(payload, METADATA).toByteArray());
    }
  }

  @Benchmark
  public void wholePathTableRow(Blackhole blackhole) throws Exception {
    for (byte[] payload : corpus) {
      blackhole.consume(tableRowProto(tableRows.fromBytes(payload, METADATA)));
    }
  }

  @Benchmark
  public void wholePathBeamRow(Blackhole blackhole) throws Exception {
    for (byte[] payload : corpus) {
      Row row = rows.fromBytes(payload, METADATA);
      blackhole.consume(
          BeamRowToStorageApiProto.messageFromBeamRow(descriptor, row, null, -1).toByteArray());
    }
  }

  @Benchmark
  public void wholePathGenericRecord(Blackhole blackhole) throws Exception {
    for (byte[] payload : corpus) {
      blackhole.consume(avroProto(records.fromBytes(payload, METADATA)));
    }
  }

  private byte[] tableRowProto(TableRow row) throws Exception {
    return TableRowToStorageApiProto.messageFromTableRow(
            schemaInformation, descriptor, row, false, false, null, null, -1)
        .toByteArray();
  }

  private byte[] avroProto(GenericRecord record) {
    return AvroGenericRecordToStorageApiProto.messageFromGenericRecord(descriptor, record, null, -1)
        .toByteArray();
  }
}
