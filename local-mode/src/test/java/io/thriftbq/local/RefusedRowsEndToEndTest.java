package io.thriftbq.local;

import static io.thriftbq.local.EndToEndTables.count;
import static org.hamcrest.MatcherAssert.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.lessThan;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.api.services.bigquery.model.TableFieldSchema;
import com.google.api.services.bigquery.model.TableSchema;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.ingest.deadletter.DeadLetterSchema;
import io.thriftbq.ingest.deadletter.DeadLetterTables;
import io.thriftbq.ingest.schema.EventSchemas;
import io.thriftbq.ingest.schema.MetadataColumns;
import io.thriftbq.local.beamio.StorageApiClientCaches;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.engine.PipelineControl;
import io.thriftbq.local.run.EmulatorTables;
import io.thriftbq.local.run.Ingestion;
import io.thriftbq.local.run.IngestionArgs;
import io.thriftbq.local.run.TableQueries;
import io.thriftbq.local.source.PubsubSource;
import io.thriftbq.local.stack.EmulatorStack;
import io.thriftbq.local.stack.PubsubEmulator;
import io.thriftbq.schema.ThriftSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.beam.sdk.PipelineResult;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
import org.apache.thrift.transport.TMemoryBuffer;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * Rows BigQuery refuses, on each write method, against the BigQuery emulator (which validates rows
 * as BigQuery does): the table was made stricter than the IDL (a column the IDL has optional is
 * REQUIRED), so events without it decode fine and are refused by the table. Each must reach the
 * dead-letter table at the WRITE stage, with BigQuery's reason and the event's raw bytes, in
 * bounded time, while the other events are written and the pipeline keeps running: a row that can
 * never succeed is not retried forever.
 */
@RunWith(Parameterized.class)
public class RefusedRowsEndToEndTest {
  private static final String IDL =
      "struct Ev {\n  1: required string id,\n  2: optional string note,\n  3: optional i64 n,\n}\n";
  private static final int GOOD = 30;
  private static final int REFUSED = 10;
  private static final long BOUND_SECONDS = 120;

  @Parameterized.Parameters(name = "step {0}")
  public static List<Object[]> steps() {
    // Streaming inserts; the default stream with rows Beam converts (Avro) and with the decoder's
    // proto bytes. Not exactly-once: the emulator checks rows appended to buffered streams only at
    // flush and then drops the whole batch silently (BigQuery checks each append), so the test
    // could not tell a pipeline defect from the emulator's; Beam's fakes cover that method.
    return SharedEmulators.steps(1, 7, 8);
  }

  @Parameterized.Parameter(0)
  public int stepNumber;

  @Rule public Timeout timeout = Timeout.seconds(300);
  @Rule public TemporaryFolder temp = new TemporaryFolder();

  @After
  public void closeCachedAppendClients() {
    StorageApiClientCaches.closeAll();
  }

  @Test
  public void refusedRowsAreDeadLetteredWithTheReasonAndTheirBytesInBoundedTime() throws Exception {
    EmulatorStack stack = SharedEmulators.get();
    TuningStep step = TuningStep.of(stepNumber);
    Path idl = temp.newFile("ev.thrift").toPath();
    Files.writeString(idl, IDL);
    List<String> structArgs = List.of("--thriftIdl=" + idl, "--thriftStruct=Ev");
    String table = "refused_step" + stepNumber + "_" + UUID.randomUUID().toString().substring(0, 6);

    TableSchema schema =
        EventSchemas.of(ThriftSource.idl(idl.toString(), List.of(), "Ev"), MetadataColumns.ALL)
            .tableSchema();
    TableFieldSchema note =
        schema.getFields().stream().filter(f -> f.getName().equals("note")).findFirst().get();
    note.setMode("REQUIRED");
    EmulatorTables.create(stack, table, schema);
    EmulatorTables.create(
        stack, table + DeadLetterTables.DEFAULT_SUFFIX, DeadLetterSchema.tableSchema());

    PubsubSource channel = PubsubSource.create(stack, "refused");
    List<String> args =
        new ArrayList<>(
            IngestionArgs.forStep(step)
                .withTriggeringFrequencySec(1)
                .withStructArgs(structArgs)
                .toList(channel, stack.bigquery(), RunTables.forOutputTable(table)));
    // The table is stricter than the IDL on purpose: do not let launch relax it.
    args.add("--schemaUpdate=NONE");
    args.add("--keepPayloadForWriteFailures=true");

    Map<String, byte[]> refused = new HashMap<>();
    List<PubsubEmulator.RawMessage> messages = new ArrayList<>();
    for (int i = 0; i < GOOD + REFUSED; i++) {
      boolean bad = i % 4 == 3 && refused.size() < REFUSED;
      byte[] payload = event("id-" + i, bad ? null : "note " + i, i);
      if (bad) {
        refused.put(Integer.toString(i), payload);
      }
      messages.add(
          new PubsubEmulator.RawMessage(
              payload,
              Map.of(
                  EventAttributes.EVENT_ID,
                  Integer.toString(i),
                  EventAttributes.EVENT_TIME_MS,
                  Long.toString(System.currentTimeMillis()))));
    }
    int good = messages.size() - refused.size();

    PipelineResult pipeline = Ingestion.start(stack, args);
    try {
      long start = System.nanoTime();
      stack.pubsub().publish(channel.topic(), messages);
      long deadline = start + BOUND_SECONDS * 1_000_000_000L;
      long rows = 0;
      long deadLetters = 0;
      while (System.nanoTime() < deadline) {
        rows = count(stack, table);
        deadLetters = count(stack, table + DeadLetterTables.DEFAULT_SUFFIX);
        if (rows >= good && deadLetters >= refused.size()) {
          break;
        }
        Thread.sleep(500);
      }
      long seconds = (System.nanoTime() - start) / 1_000_000_000L;
      System.out.printf(
          "Refused rows, %s: %d rows, %d dead letters after %d s%n",
          step.describe(), rows, deadLetters, seconds);
      List<Map<String, JsonNode>> letters =
          stack
              .bigquery()
              .query(
                  "SELECT a.value AS id, d.stage AS stage, d.error_message AS reason,"
                      + " d.payload AS payload FROM "
                      + TableQueries.qualified(table + DeadLetterTables.DEFAULT_SUFFIX)
                      + " AS d, UNNEST(d.attributes) AS a WHERE a.key = '"
                      + EventAttributes.EVENT_ID
                      + "'");
      List<String> deadLetteredIds =
          letters.stream().map(l -> l.get("id").asText() + " " + l.get("reason").asText()).toList();
      assertEquals("rows written", good, rows);
      assertEquals(
          "refused rows dead-lettered; the table holds: " + deadLetteredIds,
          refused.size(),
          deadLetters);
      assertThat("accounted for in bounded time", seconds, lessThan(BOUND_SECONDS));

      assertEquals(refused.size(), letters.size());
      for (Map<String, JsonNode> letter : letters) {
        String id = letter.get("id").asText();
        assertNotNull("a refused event, not a good one: " + id, refused.get(id));
        assertEquals("WRITE", letter.get("stage").asText());
        assertThat(letter.get("reason").asText(), containsString("note"));
        assertArrayEquals(
            "raw bytes of " + id,
            refused.get(id),
            Base64.getDecoder().decode(letter.get("payload").asText()));
      }
      Thread.sleep(3000); // a row retried forever would show up as more attempts or a failure
      assertEquals(PipelineResult.State.RUNNING, pipeline.getState());
      assertEquals("nothing written twice or late", good, count(stack, table));
      assertEquals(refused.size(), count(stack, table + DeadLetterTables.DEFAULT_SUFFIX));
    } finally {
      PipelineControl.cancelQuietly(pipeline);
    }
  }

  /** An {@code Ev} in the binary protocol; {@code note} null leaves the field out. */
  private static byte[] event(String id, String note, long n) throws Exception {
    TMemoryBuffer buffer = new TMemoryBuffer(64);
    TBinaryProtocol out = new TBinaryProtocol(buffer);
    out.writeStructBegin(new TStruct("Ev"));
    out.writeFieldBegin(new TField("id", TType.STRING, (short) 1));
    out.writeString(id);
    out.writeFieldEnd();
    if (note != null) {
      out.writeFieldBegin(new TField("note", TType.STRING, (short) 2));
      out.writeString(note);
      out.writeFieldEnd();
    }
    out.writeFieldBegin(new TField("n", TType.I64, (short) 3));
    out.writeI64(n);
    out.writeFieldEnd();
    out.writeFieldStop();
    out.writeStructEnd();
    return java.util.Arrays.copyOf(buffer.getArray(), buffer.length());
  }
}
