package io.thriftbq.ingest.convert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableRow;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.schema.ThriftSource;
import io.thriftbq.testing.presence.Flagged;
import io.thriftbq.testing.presence.Holder;
import io.thriftbq.testing.presence.Marker;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.thrift.TSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Structs with no fields from generated classes (thrift-common's presence.thrift): the schema holds
 * each as a BOOLEAN column, and a row has true where the value was sent, NULL where it was not,
 * whether the event comes as bytes or as a decoded object. IdlParityTest checks that the same IDL
 * read at launch gives the same rows.
 */
class GeneratedFieldlessStructTest {
  private static final ThriftSource SOURCE =
      ThriftSource.generatedClass("io.thriftbq.testing.presence.Flagged");

  @ParameterizedTest
  @EnumSource(ThriftProtocol.class)
  void markersAreTrueWhereSentAndNullWhereNot(ThriftProtocol protocol) throws Exception {
    ConverterConfig config = ConverterConfig.of(SOURCE, protocol, MetadataColumns.NONE);
    EventConverter<TableRow> tableRows = TestConverters.create(config, StorageFormat.TABLE_ROW);
    Flagged event =
        new Flagged()
            .setId(7)
            .setMarker(new Marker())
            .setMarkers(List.of(new Marker(), new Marker()))
            .setTagged(Map.of("a", new Marker()))
            .setPlain(new Marker())
            .setHolder(new Holder())
            .setDistinct(Set.of(new Marker()));
    byte[] payload = new TSerializer(protocol::newWriter).serialize(event);

    TableRow fromBytes = tableRows.fromBytes(payload, EventMetadata.EMPTY);
    TableRow fromObject = tableRows.fromEvent(tableRows.decode(payload), EventMetadata.EMPTY);
    for (TableRow row : List.of(fromBytes, fromObject)) {
      assertEquals(Boolean.TRUE, row.get("marker"));
      assertEquals(List.of(Boolean.TRUE, Boolean.TRUE), row.get("markers"));
      assertEquals(Boolean.TRUE, row.get("plain"));
      assertEquals(List.of(Boolean.TRUE), row.get("distinct"));
      assertNull(row.get("nothing"), "a union with no members is never sent");
      assertNull(((Map<?, ?>) row.get("holder")).get("inner"));
      List<?> tagged = (List<?>) row.get("tagged");
      assertEquals(1, tagged.size());
      assertEquals(Boolean.TRUE, ((Map<?, ?>) tagged.get(0)).get("value"));
    }
    assertEquals(fromBytes, fromObject);

    byte[] bare = new TSerializer(protocol::newWriter).serialize(new Flagged().setId(8));
    TableRow sparse = tableRows.fromBytes(bare, EventMetadata.EMPTY);
    assertNull(sparse.get("marker"));
    assertNull(sparse.get("plain"));
    assertNull(sparse.get("holder"));
  }

  @Test
  void everyFieldlessStructIsABooleanColumn() {
    Map<String, TableFieldSchema> columns =
        EventSchemas.of(SOURCE, MetadataColumns.NONE).tableSchema().getFields().stream()
            .collect(Collectors.toMap(TableFieldSchema::getName, f -> f));
    for (String name : List.of("marker", "plain", "nothing")) {
      assertEquals("BOOLEAN", columns.get(name).getType(), name);
      assertEquals("NULLABLE", columns.get(name).getMode(), name);
    }
    for (String name : List.of("markers", "distinct")) {
      assertEquals("BOOLEAN", columns.get(name).getType(), name);
      assertEquals("REPEATED", columns.get(name).getMode(), name);
    }
    assertEquals("BOOLEAN", columns.get("holder").getFields().get(0).getType());
  }
}
