package io.thriftbq.ingest.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.api.services.bigquery.model.TableRow;
import com.google.protobuf.ByteString;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.GeneratedTestIdl;
import io.thriftbq.schema.ThriftSource;
import io.thriftbq.testing.legacy.Choice;
import io.thriftbq.testing.legacy.Job;
import java.util.List;
import java.util.Map;
import org.apache.thrift.TDeserializer;
import org.apache.thrift.TSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A union member with an IDL default (legacy.thrift's Choice.label = "none"): a new union object is
 * set to it, but a union read from the wire holds only the member sent, as libthrift reads it. From
 * the generated classes and from the IDL, in every format, the column of the member not sent is
 * NULL.
 */
class UnionMemberDefaultTest {
  private static final ThriftSource FROM_CLASS = GeneratedTestIdl.LEGACY.classSource();
  private static final ThriftSource FROM_IDL = GeneratedTestIdl.LEGACY.idlSource();

  @ParameterizedTest
  @EnumSource(ThriftProtocol.class)
  void aUnionHoldsOnlyTheMemberSent(ThriftProtocol protocol) throws Exception {
    Job job = new Job().setName("j").setChoice(Choice.count(3));
    byte[] payload = new TSerializer(protocol::newWriter).serialize(job);

    Job readByLibthrift = new Job();
    new TDeserializer(t -> protocol.newReader(t, 1 << 20, 10_000))
        .deserialize(readByLibthrift, payload);
    assertFalse(readByLibthrift.getChoice().isSetLabel());
    assertEquals(3, readByLibthrift.getChoice().getCount());

    StorageWriteBytes storageBytes =
        StorageWriteBytes.forTable(EventSchemas.of(FROM_CLASS, MetadataColumns.NONE));
    ByteString expected = null;
    for (ThriftSource source : List.of(FROM_CLASS, FROM_IDL)) {
      ConverterConfig config = ConverterConfig.of(source, protocol, MetadataColumns.NONE);
      EventConverter<TableRow> tableRows = TestConverters.create(config, StorageFormat.TABLE_ROW);
      Map<?, ?> choice =
          (Map<?, ?>) tableRows.fromBytes(payload, EventMetadata.EMPTY).get("choice");
      assertNull(choice.get("label"), source.toString());
      assertEquals(3, ((Number) choice.get("count")).intValue(), source.toString());
      for (StorageFormat format : StorageFormat.values()) {
        EventConverter<?> converter = TestConverters.create(config, format);
        ByteString bytes = storageBytes.of(converter.fromBytes(payload, EventMetadata.EMPTY));
        if (expected == null) {
          expected = bytes;
        }
        assertEquals(expected, bytes, source + " " + format);
      }
    }
  }
}
