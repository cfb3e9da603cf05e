package io.thriftbq.ingest;

import static org.junit.Assert.assertEquals;

import com.google.api.services.bigquery.model.TableRow;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.codec.ThriftProtocol;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.options.IngestionOptions;
import io.thriftbq.ingest.options.StorageFormat;
import io.thriftbq.ingest.options.WriteMethod;
import io.thriftbq.ingest.plan.IngestionPlan;
import io.thriftbq.ingest.plan.TypePlan;
import io.thriftbq.ingest.testing.FakeBigQuery;
import io.thriftbq.ingest.testing.RowNormalizer;
import io.thriftbq.ingest.testing.ShopEvents;
import io.thriftbq.ingest.testing.TestData;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.beam.sdk.Pipeline;
import org.apache.beam.sdk.io.gcp.pubsub.PubsubMessage;
import org.apache.beam.sdk.options.PipelineOptionsFactory;
import org.apache.beam.sdk.values.PCollection;
import org.apache.beam.sdk.values.TimestampedValue;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Three structs in one job, routed by attribute and by union member, with every format and every
 * write method, against Beam's fake BigQuery: each struct's rows land in its own table, exactly,
 * and the same whatever the format; messages no struct takes are ROUTE dead letters; a malformed
 * struct is a DECODE dead letter naming its struct and table; a row BigQuery rejects is a WRITE
 * dead letter naming its struct and table, whether each struct has its own write or one write takes
 * every table ({@code WriteEventsToTables}, which streaming inserts and kept payloads choose), and
 * with {@code --keepPayloadForWriteFailures} it carries the Thrift bytes.
 */
@RunWith(Parameterized.class)
public class ManyTypesMatrixTest {
  private static final int EVENTS = 12;

  /** The Order event whose row the fake BigQuery rejects. */
  private static final int REJECTED = 3;

  @Parameters(name = "{0}, {1}, unbounded={2}, keepPayload={3}")
  public static Collection<Object[]> cases() {
    List<Object[]> cases = new ArrayList<>();
    for (WriteMethod method : WriteMethod.values()) {
      for (String layout : List.of("attribute", "union")) {
        cases.add(new Object[] {method, layout, false, false});
        cases.add(new Object[] {method, layout, true, false});
        // Kept payloads: each layout once, one bounded and one unbounded, to bound the run time.
        cases.add(new Object[] {method, layout, layout.equals("union"), true});
      }
    }
    return cases;
  }

  private final WriteMethod method;
  private final boolean union;
  private final boolean unbounded;
  private final boolean keepPayload;
  private final ShopEvents shop = new ShopEvents(ThriftProtocol.BINARY);

  public ManyTypesMatrixTest(
      WriteMethod method, String layout, boolean unbounded, boolean keepPayload) {
    this.method = method;
    this.union = layout.equals("union");
    this.unbounded = unbounded;
    this.keepPayload = keepPayload;
  }

  @Test
  public void everyFormatRoutesEachStructToItsTableAndTheRestToDeadLetters() {
    Map<StorageFormat, Map<String, List<Map<String, Object>>>> byFormat =
        new EnumMap<>(StorageFormat.class);
    String rejectedOrderId = idOf(REJECTED, ShopEvents.ID_COLUMNS.get(0));
    for (StorageFormat format : StorageFormat.values()) {
      // Only Order rows have an order_id; dead-letter rows go through the same fake.
      FakeBigQuery fake =
          FakeBigQuery.rejecting(
              row -> rejectedOrderId.equals(String.valueOf(row.get(ShopEvents.ID_COLUMNS.get(0)))));
      IngestionOptions options = options(fake, format);
      IngestionPlan plan = IngestionPlan.of(options, input());
      Pipeline pipeline = Pipeline.create(options);
      IngestionPipeline.ingest(input(pipeline), options, fake.services);
      assertEquals(
          format + ": the rows reach the writer through a hand-off",
          unbounded && method == WriteMethod.STORAGE_API_AT_LEAST_ONCE,
          TransformNames.anyEndsWith(pipeline, "/HandOff"));
      assertEquals(
          format + ": each writer has a hand-off of its own",
          writers() > 1,
          TransformNames.anyEndsWith(pipeline, "/Writer" + writers() + "/HandOff"));
      try {
        pipeline.run().waitUntilFinish();
      } catch (RuntimeException e) {
        throw new AssertionError(format + " failed to run", e);
      }

      Map<String, List<Map<String, Object>>> tables = new TreeMap<>();
      for (int type = 0; type < 3; type++) {
        TypePlan typePlan = plan.types().get(type);
        String table = fake.events + "_" + ShopEvents.TABLES.get(type);
        assertEquals(FakeBigQuery.tableSpec(table), typePlan.table());
        TableSchema schema = typePlan.schemas().tableSchema();
        String idColumn = ShopEvents.ID_COLUMNS.get(type);
        List<Map<String, Object>> rows = new ArrayList<>();
        for (TableRow row : fake.rows(table)) {
          rows.add(RowNormalizer.normalize(row, schema));
        }
        rows.sort(Comparator.comparing(row -> String.valueOf(row.get(idColumn))));
        assertEquals(
            format
                + " "
                + table
                + ": one row per event of its struct but the rejected one; dead letters: "
                + fake.rows(fake.events + "_dead_letter"),
            EVENTS / 3 - (type == 0 ? 1 : 0),
            rows.size());
        List<String> ids = rows.stream().map(row -> String.valueOf(row.get(idColumn))).toList();
        assertEquals(format + " " + table + " ids", expectedIds(type, idColumn), ids);
        tables.put(table.substring(fake.events.length()), rows);
      }
      byFormat.put(format, tables);
      assertDeadLetters(format, fake);
    }
    for (StorageFormat format : StorageFormat.values()) {
      assertEquals(
          format + " lands the same rows as TABLE_ROW",
          byFormat.get(StorageFormat.TABLE_ROW),
          byFormat.get(format));
    }
  }

  /**
   * The ids of the generated events of {@code type} but the rejected one, as the table holds them,
   * sorted.
   */
  private List<String> expectedIds(int type, String idColumn) {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < EVENTS; i++) {
      if (ShopEvents.typeOf(i) == type && i != REJECTED) {
        ids.add(idOf(i, idColumn));
      }
    }
    ids.sort(Comparator.naturalOrder());
    return ids;
  }

  /** The {@code idColumn} value of event {@code sequence}'s row, as the table holds it. */
  private String idOf(int sequence, String idColumn) {
    // Planned on the fake's table names without resetting the fake (its state is static).
    IngestionOptions options = options(null, StorageFormat.TABLE_ROW);
    IngestionPlan plan = IngestionPlan.of(options, input());
    TypePlan type = plan.types().get(ShopEvents.typeOf(sequence));
    var converter =
        io.thriftbq.ingest.format.Format.of(StorageFormat.TABLE_ROW).newConverter(type.decoding());
    try {
      Object row =
          converter.fromBytes(shop.struct(sequence), io.thriftbq.ingest.origin.EventMetadata.EMPTY);
      return String.valueOf(
          RowNormalizer.normalize((TableRow) row, type.schemas().tableSchema()).get(idColumn));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private void assertDeadLetters(StorageFormat format, FakeBigQuery fake) {
    Map<String, Integer> byStageAndStruct = new HashMap<>();
    Map<String, String> tableByStruct = new HashMap<>();
    for (TableRow row : fake.rows(fake.events + "_dead_letter")) {
      String struct = (String) row.getOrDefault(DeadLetterSchema.STRUCT, "");
      byStageAndStruct.merge(row.get(DeadLetterSchema.STAGE) + "/" + struct, 1, Integer::sum);
      tableByStruct.put(struct, String.valueOf(row.get(DeadLetterSchema.EVENT_TABLE)));
      if ("WRITE".equals(row.get(DeadLetterSchema.STAGE))) {
        assertEquals(
            format + " a rejected row's dead letter keeps the Thrift bytes when asked",
            keepPayload ? "THRIFT" : "BIGQUERY_ROW_JSON",
            row.get(DeadLetterSchema.PAYLOAD_FORMAT));
        assertEquals(
            format + " a rejected row's dead letter keeps its message id",
            "m-" + REJECTED,
            row.get(DeadLetterSchema.MESSAGE_ID));
      }
    }
    Map<String, Integer> expected = new HashMap<>();
    expected.put("ROUTE/", union ? 3 : 2);
    expected.put("DECODE/Refund", 1);
    expected.put("WRITE/Order", 1);
    assertEquals(format + " dead letters by stage/struct", expected, byStageAndStruct);
    assertEquals(
        format + " a WRITE dead letter names its struct's table",
        FakeBigQuery.tableSpec(fake.events + "_order"),
        tableByStruct.get("Order"));
    assertEquals(
        format + " a DECODE dead letter names its struct's table",
        FakeBigQuery.tableSpec(fake.events + "_refund"),
        tableByStruct.get("Refund"));
    assertEquals(format + " a ROUTE dead letter names no table", "", tableByStruct.get(""));
  }

  /**
   * @param fake the fake to write to, or null for options that are only planned
   */
  private IngestionOptions options(FakeBigQuery fake, StorageFormat format) {
    List<String> args = new ArrayList<>();
    args.add(
        "--credentialFactoryClass=org.apache.beam.sdk.extensions.gcp.auth.NoopCredentialFactory");
    args.add("--project=" + FakeBigQuery.PROJECT);
    args.add("--runner=DirectRunner");
    args.add(
        "--outputTable="
            + (fake == null ? FakeBigQuery.tableSpec("planned") : fake.eventsSpec())
            + "_{struct}");
    args.add("--thriftIdl=" + ShopEvents.IDL);
    if (union) {
      args.add("--thriftUnion=AnyEvent");
    } else {
      args.add("--thriftStructs=" + String.join(",", ShopEvents.STRUCTS));
    }
    args.add("--formatToStore=" + format);
    args.add("--bigQueryWriteMethod=" + method);
    args.add("--includePubsubMessageId=true");
    args.add("--keepPayloadForWriteFailures=" + keepPayload);
    if (unbounded && method != WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      args.add("--enableBigQueryAutoshard=true");
    }
    if (unbounded && method == WriteMethod.STORAGE_WRITE_API) {
      args.add("--storageWriteApiTriggeringFrequencySec=1");
    }
    if (unbounded && method == WriteMethod.STORAGE_API_AT_LEAST_ONCE) {
      // The rows of every table reach the writer through a Reshuffle (local mode's setting for
      // saturation); with kept payloads one write takes every table, here dealt out to writers.
      args.add("--handOffBeforeWrite=true");
      args.add("--handOffWriters=" + writers());
    }
    return PipelineOptionsFactory.fromArgs(args.toArray(new String[0]))
        .withValidation()
        .as(IngestionOptions.class);
  }

  /** The writers behind the hand-off: three for the write that takes every table. */
  private int writers() {
    return unbounded && method == WriteMethod.STORAGE_API_AT_LEAST_ONCE && keepPayload ? 3 : 1;
  }

  private IngestionPlan.Input input() {
    return unbounded
        ? IngestionPlan.Input.UNBOUNDED_MESSAGES
        : IngestionPlan.Input.BOUNDED_MESSAGES;
  }

  /** The events, one malformed Refund, and the messages no struct takes. */
  private List<TimestampedValue<PubsubMessage>> messages() {
    List<PubsubMessage> messages = new ArrayList<>();
    for (int i = 0; i < EVENTS; i++) {
      Map<String, String> attributes = new HashMap<>(TestData.attributes(i));
      if (!union) {
        attributes.put("thrift_struct", ShopEvents.STRUCTS.get(ShopEvents.typeOf(i)));
      }
      messages.add(new PubsubMessage(union ? shop.union(i) : shop.struct(i), attributes, "m-" + i));
    }
    // A Refund cut short: a DECODE dead letter of Refund.
    byte[] refund = shop.struct(1);
    byte[] cut = java.util.Arrays.copyOf(refund, refund.length / 2);
    if (union) {
      messages.add(new PubsubMessage(shop.wrap(2, (byte) 12, cut), Map.of(), "bad-refund"));
      // The union's string member, an unknown member and an empty union: ROUTE dead letters.
      messages.add(
          new PubsubMessage(
              shop.wrap(4, (byte) 11, new byte[] {0, 0, 0, 2, 'h', 'i'}), Map.of(), "note"));
      messages.add(new PubsubMessage(shop.wrap(9, (byte) 12, new byte[] {0}), Map.of(), "m9"));
      messages.add(new PubsubMessage(new byte[] {0}, Map.of(), "empty"));
    } else {
      messages.add(new PubsubMessage(cut, Map.of("thrift_struct", "Refund"), "bad-refund"));
      messages.add(new PubsubMessage(shop.struct(0), Map.of(), "no-attribute"));
      messages.add(
          new PubsubMessage(
              "x".getBytes(StandardCharsets.UTF_8), Map.of("thrift_struct", "Nope"), "unknown"));
    }
    List<TimestampedValue<PubsubMessage>> stamped = new ArrayList<>();
    for (int i = 0; i < messages.size(); i++) {
      stamped.add(TimestampedValue.of(messages.get(i), TestData.publishTime(i)));
    }
    return stamped;
  }

  private PCollection<PubsubMessage> input(Pipeline pipeline) {
    return TestData.input(pipeline, messages(), unbounded);
  }
}
