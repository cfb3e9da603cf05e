package io.thriftbq.ingest.convert;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import io.thriftbq.ingest.schema.EventSchemas;
import org.apache.avro.generic.GenericRecord;
import org.apache.beam.sdk.io.gcp.bigquery.AvroGenericRecordToStorageApiProto;
import org.apache.beam.sdk.io.gcp.bigquery.BeamRowToStorageApiProto;
import org.apache.beam.sdk.io.gcp.bigquery.TableRowToStorageApiProto;
import org.apache.beam.sdk.values.Row;

/**
 * What a row of any format hands the Storage Write API, converted as Beam's sink converts it
 * (descriptor from the table schema with {@code respectRequired=true}), so that tests can compare
 * formats and sources byte for byte.
 */
final class StorageWriteBytes {
  private final Descriptor descriptor;
  private final TableRowToStorageApiProto.SchemaInformation schemaInformation;

  private StorageWriteBytes(
      Descriptor descriptor, TableRowToStorageApiProto.SchemaInformation schemaInformation) {
    this.descriptor = descriptor;
    this.schemaInformation = schemaInformation;
  }

  static StorageWriteBytes forTable(EventSchemas schemas) {
    try {
      return new StorageWriteBytes(
          TableRowToStorageApiProto.getDescriptorFromTableSchema(
              schemas.tableSchema(), true, false),
          TableRowToStorageApiProto.SchemaInformation.fromTableSchema(
              TableRowToStorageApiProto.schemaToProtoTableSchema(schemas.tableSchema())));
    } catch (Exception e) {
      throw new IllegalStateException("no Storage Write descriptor for the table schema", e);
    }
  }

  Descriptor descriptor() {
    return descriptor;
  }

  /** A TableRow, Beam Row, GenericRecord or {@link EncodedRow} as Storage Write API bytes. */
  ByteString of(Object row) throws Exception {
    if (row instanceof com.google.api.services.bigquery.model.TableRow tableRow) {
      return TableRowToStorageApiProto.messageFromTableRow(
              schemaInformation, descriptor, tableRow, false, false, null, null, -1)
          .toByteString();
    }
    if (row instanceof Row beamRow) {
      return BeamRowToStorageApiProto.messageFromBeamRow(descriptor, beamRow, null, -1)
          .toByteString();
    }
    if (row instanceof GenericRecord record) {
      return AvroGenericRecordToStorageApiProto.messageFromGenericRecord(
              descriptor, record, null, -1)
          .toByteString();
    }
    return ((EncodedRow) row).toByteString();
  }
}
