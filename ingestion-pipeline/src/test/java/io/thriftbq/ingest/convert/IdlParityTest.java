package io.thriftbq.ingest.convert;

import static org.junit.Assert.assertEquals;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.datagen.GeneratorConfig;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.origin.EventMetadata;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.ingest.schema.ProtoSchemas;
import io.thriftbq.schema.GeneratedTestIdl;
import io.thriftbq.schema.ThriftSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * An IDL read at launch and the generated classes of the same IDL give byte-identical Storage Write
 * API rows, in every format and both protocols, including fields left to their IDL defaults.
 */
@RunWith(Parameterized.class)
public class IdlParityTest {
  private static final EventMetadata METADATA =
      new EventMetadata("msg-1", 1_763_000_000_123L, Map.of("k", "v"));

  @Parameters(name = "{0} {1}")
  public static List<Object[]> parameters() {
    List<Object[]> parameters = new ArrayList<>();
    for (GeneratedTestIdl idl : GeneratedTestIdl.values()) {
      for (ThriftProtocol protocol : ThriftProtocol.values()) {
        parameters.add(new Object[] {idl, protocol});
      }
    }
    return parameters;
  }

  private final ThriftProtocol protocol;
  private final ThriftSource classSource;
  private final ThriftSource idlSource;

  public IdlParityTest(GeneratedTestIdl idl, ThriftProtocol protocol) {
    this.protocol = protocol;
    this.classSource = idl.classSource();
    this.idlSource = idl.idlSource();
  }

  private ConverterConfig config(ThriftSource source) {
    return ConverterConfig.of(source, protocol, MetadataColumns.ALL);
  }

  @Test
  public void sameTableSchema() {
    assertEquals(
        EventSchemas.of(classSource, MetadataColumns.ALL).tableSchema(),
        EventSchemas.of(idlSource, MetadataColumns.ALL).tableSchema());
  }

  @Test
  public void everyFormatGivesTheSameStorageWriteBytes() throws Exception {
    EventSchemas schemas = EventSchemas.of(classSource, MetadataColumns.ALL);
    StorageWriteBytes storageBytes = StorageWriteBytes.forTable(schemas);
    Descriptor message =
        FileDescriptor.buildFrom(
                ProtoSchemas.fileFor(schemas.tableSchema(), "io.example", "Row"),
                new FileDescriptor[0])
            .getMessageTypes()
            .get(0);

    List<EventConverter<?>> fromClass = converters(config(classSource), message);
    List<EventConverter<?>> fromIdl = converters(config(idlSource), message);
    // Sparse events leave optional fields (and their IDL defaults) out; complete ones set all.
    for (boolean complete : new boolean[] {false, true}) {
      RandomEventGenerator generator =
          new RandomEventGenerator(
              GeneratorConfig.builder()
                  .source(classSource)
                  .protocol(protocol)
                  .seed(complete ? 7 : 8)
                  .completeObjects(complete)
                  .optionalFieldProbability(0.5)
                  .maxCollectionSize(3)
                  .build());
      for (long n = 0; n < 150; n++) {
        byte[] payload = generator.serialize(n);
        for (int f = 0; f < fromClass.size(); f++) {
          ByteString expected = storageBytes.of(fromClass.get(f).fromBytes(payload, METADATA));
          assertEquals(
              "event " + n + " format " + f,
              expected,
              storageBytes.of(fromIdl.get(f).fromBytes(payload, METADATA)));
        }
      }
    }
  }

  private static List<EventConverter<?>> converters(ConverterConfig config, Descriptor message) {
    EventSchemas schemas = config.schemas();
    return List.of(
        TestConverters.create(config, StorageFormat.TABLE_ROW),
        TestConverters.create(config, StorageFormat.BEAM_ROW),
        TestConverters.create(config, StorageFormat.AVRO_GENERIC_RECORD),
        new ThriftRowConverter<>(
            config, schemas, new ProtoMessageAssembler(schemas.tableSchema(), message)));
  }
}
