package io.thriftbq.local;

import static io.thriftbq.local.EndToEndTables.count;
import static org.junit.Assert.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.thriftbq.codec.EventAttributes;
import io.thriftbq.codec.EventEnvelope;
import io.thriftbq.datagen.RandomEventGenerator;
import io.thriftbq.ingest.deadletter.DeadLetterTables;
import io.thriftbq.ingest.deadletter.Stage;
import io.thriftbq.local.beamio.StorageApiClientCaches;
import io.thriftbq.local.config.RunTables;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.config.TuningStep;
import io.thriftbq.local.engine.PipelineControl;
import io.thriftbq.local.run.EmulatorTables;
import io.thriftbq.local.run.GeneratorArgs;
import io.thriftbq.local.run.Ingestion;
import io.thriftbq.local.run.IngestionArgs;
import io.thriftbq.local.run.TableQueries;
import io.thriftbq.local.source.EventSource;
import io.thriftbq.local.source.KafkaSource;
import io.thriftbq.local.source.PubsubSource;
import io.thriftbq.local.source.SourceMessage;
import io.thriftbq.local.stack.EmulatorStack;
import io.thriftbq.local.stack.PubsubEmulator;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import java.util.zip.Deflater;
import org.apache.beam.sdk.PipelineResult;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.junit.rules.Timeout;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * Hostile messages through the whole local stack (Pub/Sub emulator → pipeline on the local engine →
 * BigQuery emulator), for one write method per parameter: every byte-offset truncation of a rich
 * event, random payloads from 0 B to 9 MB, an event of another struct, declared sizes near 2^31,
 * 10,000 nested headers, invalid UTF-8, wrong wire types, corrupt envelopes and a decompression
 * bomb, attributes with huge values. Each message has one expected outcome, from the decoding
 * contract in the README: rows, or dead letters at a stage. The test checks each message's outcome,
 * that {@code published == written + dead-lettered}, that every dead letter keeps the exact bytes
 * it failed on, and that the pipeline still runs afterwards.
 */
@RunWith(Parameterized.class)
public class HostileInputsEndToEndTest {
  private static final String IDL =
      """
      enum Color { RED = 1, GREEN = 2 }
      struct Inner {
        1: required i32 a,
        2: optional string s,
      }
      struct Ev {
        1: required string id,
        2: optional string note,
        3: optional i64 n,
        4: optional list<string> tags,
        5: optional map<string, i64> counts,
        6: optional Inner inner,
        7: optional list<Inner> items,
        8: optional binary blob,
        9: optional double x,
        10: optional bool flag,
        11: optional Color color,
      }
      struct Other {
        1: required i64 key,
        2: required double value,
        3: optional list<i32> xs,
      }
      """;
  private static final String HOSTILE_ID = "hostile_id";
  private static final long BOUND_SECONDS = 240;

  // Binary protocol wire types.
  private static final byte STOP = 0;
  private static final byte BOOL = 2;
  private static final byte I32 = 8;
  private static final byte I64 = 10;
  private static final byte STRING = 11;
  private static final byte STRUCT = 12;
  private static final byte MAP = 13;
  private static final byte LIST = 15;

  @Parameterized.Parameters(name = "step {0} from {1}")
  public static List<Object[]> steps() {
    // One step per write path: streaming inserts with TableRow, exactly-once Storage Write with
    // Avro, at-least-once Storage Write with direct proto bytes.
    List<Object[]> cases = new ArrayList<>();
    for (SourceKind source : SourceKind.values()) {
      for (Object[] step : SharedEmulators.steps(1, 6, 8)) {
        cases.add(new Object[] {step[0], source});
      }
    }
    return cases;
  }

  @Parameterized.Parameter(0)
  public int stepNumber;

  @Parameterized.Parameter(1)
  public SourceKind source;

  @Rule public Timeout timeout = Timeout.seconds(420);
  @Rule public TemporaryFolder temp = new TemporaryFolder();

  /** What must become of one published message. */
  private record Expected(int rows, List<Stage> deadLetterStages, String reasonContains) {
    static Expected row() {
      return new Expected(1, List.of(), null);
    }

    static Expected deadLetter(Stage stage, String reasonContains) {
      return new Expected(0, List.of(stage), reasonContains);
    }
  }

  /** A published message, its expected outcome and the payload each dead letter must keep. */
  private record Hostile(
      String id, PubsubEmulator.RawMessage message, Expected expected, List<byte[]> kept) {}

  @After
  public void closeCachedAppendClients() {
    StorageApiClientCaches.closeAll();
  }

  @Test
  public void everyHostileMessageEndsAsRowsOrDeadLettersAndThePipelineKeepsRunning()
      throws Exception {
    EmulatorStack stack =
        source == SourceKind.KAFKA ? SharedEmulators.withKafka() : SharedEmulators.get();
    TuningStep step = TuningStep.of(stepNumber);
    Path idl = temp.newFile("hostile.thrift").toPath();
    Files.writeString(idl, IDL);
    List<String> evArgs = List.of("--thriftIdl=" + idl, "--thriftStruct=Ev");
    String table =
        "hostile_step"
            + stepNumber
            + "_"
            + source.flagValue()
            + "_"
            + UUID.randomUUID().toString().substring(0, 6);
    EmulatorTables.create(stack, RunTables.forOutputTable(table), evArgs);
    EventSource channel =
        source == SourceKind.KAFKA
            ? KafkaSource.create(stack, "hostile")
            : PubsubSource.create(stack, "hostile");

    RandomEventGenerator events = generator(stack, evArgs);
    RandomEventGenerator others =
        generator(stack, List.of("--thriftIdl=" + idl, "--thriftStruct=Other"));
    List<Hostile> hostile = hostileMessages(events, others);
    long expectedRows = hostile.stream().mapToLong(h -> h.expected().rows()).sum();
    long expectedDeadLetters =
        hostile.stream().mapToLong(h -> h.expected().deadLetterStages().size()).sum();

    List<String> args =
        IngestionArgs.forStep(step)
            .withTriggeringFrequencySec(1)
            .withStructArgs(evArgs)
            .toList(channel, stack.bigquery(), RunTables.forOutputTable(table));
    PipelineResult pipeline = Ingestion.start(stack, args);
    try {
      long start = System.nanoTime();
      publish(channel, hostile);
      long deadline = start + BOUND_SECONDS * 1_000_000_000L;
      long rows = 0;
      long deadLetters = 0;
      while (System.nanoTime() < deadline) {
        rows = count(stack, table);
        deadLetters = count(stack, table + DeadLetterTables.DEFAULT_SUFFIX);
        if (rows >= expectedRows && deadLetters >= expectedDeadLetters) {
          break;
        }
        Thread.sleep(1000);
      }
      System.out.printf(
          "Hostile inputs, %s: %d messages published, %d rows and %d dead letters after %d s%n",
          step.describe(),
          hostile.size(),
          rows,
          deadLetters,
          (System.nanoTime() - start) / 1_000_000_000L);
      Map<String, Long> rowsById =
          EndToEndTables.rowsPerAttribute(stack, table, HOSTILE_ID, channel.attributesColumn());
      Map<String, List<JsonNode[]>> lettersById = deadLettersById(stack, table);
      List<String> mismatches = new ArrayList<>();
      for (Hostile message : hostile) {
        String id = message.id();
        long rowsOfId = rowsById.getOrDefault(id, 0L);
        List<JsonNode[]> letters = lettersById.getOrDefault(id, List.of());
        List<String> stages = letters.stream().map(l -> l[0].asText()).sorted().toList();
        List<String> expectedStages =
            message.expected().deadLetterStages().stream().map(Stage::name).sorted().toList();
        if (rowsOfId != message.expected().rows() || !stages.equals(expectedStages)) {
          mismatches.add(
              id
                  + ": "
                  + rowsOfId
                  + " rows and dead letters "
                  + stages
                  + ", expected "
                  + message.expected().rows()
                  + " and "
                  + expectedStages
                  + (letters.isEmpty() ? "" : " (reason: " + letters.get(0)[1].asText() + ")"));
          continue;
        }
        for (JsonNode[] letter : letters) {
          String reason = letter[1].asText();
          if (message.expected().reasonContains() != null
              && !reason.contains(message.expected().reasonContains())) {
            mismatches.add(
                id
                    + ": reason '"
                    + reason
                    + "' lacks '"
                    + message.expected().reasonContains()
                    + "'");
          }
        }
        List<String> kept =
            letters.stream()
                .map(l -> sha256(Base64.getDecoder().decode(l[2].asText())))
                .sorted()
                .toList();
        List<String> expectedKept =
            message.kept().stream().map(HostileInputsEndToEndTest::sha256).sorted().toList();
        if (!kept.equals(expectedKept)) {
          mismatches.add(id + ": kept " + kept + ", expected " + expectedKept);
        }
      }
      assertEquals(
          "messages whose outcome differs from the decoding contract:\n"
              + String.join("\n", mismatches),
          List.of(),
          mismatches);
      assertEquals("rows written", expectedRows, rows);
      assertEquals("dead letters", expectedDeadLetters, deadLetters);

      Thread.sleep(3000);
      assertEquals(PipelineResult.State.RUNNING, pipeline.getState());
      assertEquals("nothing written late", expectedRows, count(stack, table));
      assertEquals(
          "nothing dead-lettered late",
          expectedDeadLetters,
          count(stack, table + DeadLetterTables.DEFAULT_SUFFIX));
    } finally {
      PipelineControl.cancelQuietly(pipeline);
    }
  }

  private static RandomEventGenerator generator(EmulatorStack stack, List<String> structArgs) {
    return GeneratorArgs.generatorFor(
        GeneratorArgs.of(List.of(), 1000, 100, 42L, 1, false, structArgs));
  }

  private static List<Hostile> hostileMessages(
      RandomEventGenerator events, RandomEventGenerator others) throws Exception {
    List<Hostile> out = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(20261125L);

    // Controls: valid events must come through as rows among all this.
    for (int i = 0; i < 20; i++) {
      out.add(plain("valid-" + i, events.serialize(i), Expected.row()));
    }

    // A rich event cut at every byte offset: a strict prefix never holds the STOP byte.
    byte[] rich = richest(events, 200);
    for (int length = 0; length < rich.length; length++) {
      out.add(
          plain(
              "truncated-" + length,
              Arrays.copyOf(rich, length),
              Expected.deadLetter(Stage.DECODE, null)));
    }

    // Random bytes, 0 B to about 9 MB (Pub/Sub's limit is 10 MB per message).
    int[] sizes = {0, 1, 2, 3, 7, 64, 1000, 65_536, 1 << 20, 4 << 20, 9_000_000};
    for (int size : sizes) {
      byte[] payload = new byte[size];
      random.nextBytes(payload);
      out.add(plain("random-" + size, payload, Expected.deadLetter(Stage.DECODE, null)));
    }

    // Valid events of another struct: field 1 has another wire type, so `id` is missing.
    for (int i = 0; i < 5; i++) {
      out.add(
          plain(
              "other-struct-" + i,
              others.serialize(i),
              Expected.deadLetter(Stage.DECODE, "Required field 'id'")));
    }

    // Declared sizes near 2^31, on known fields and on a field the IDL does not know.
    int[] declared = {Integer.MAX_VALUE, Integer.MAX_VALUE - 8, Integer.MIN_VALUE, -1};
    for (int size : declared) {
      out.add(
          deadAtDecode(
              "string-size-" + size, bytes(idField(), header(STRING, 2), i32(size), "abc")));
      out.add(
          deadAtDecode(
              "binary-size-" + size, bytes(idField(), header(STRING, 8), i32(size), "abc")));
      out.add(
          deadAtDecode(
              "list-size-" + size,
              bytes(idField(), header(LIST, 4), new byte[] {STRING}, i32(size), "abc")));
      out.add(
          deadAtDecode(
              "map-size-" + size,
              bytes(idField(), header(MAP, 5), new byte[] {STRING, I64}, i32(size), "abc")));
      out.add(
          deadAtDecode(
              "unknown-list-size-" + size,
              bytes(idField(), header(LIST, 99), new byte[] {I64}, i32(size), "abc")));
    }

    // 10,000 nested headers: structs through a known field, structs and lists through an unknown
    // one.
    out.add(deadAtDecode("nested-known-struct", nested(header(STRUCT, 6), header(STRUCT, 6))));
    out.add(deadAtDecode("nested-unknown-struct", nested(header(STRUCT, 99), header(STRUCT, 99))));
    out.add(
        deadAtDecode(
            "nested-unknown-list",
            nested(
                bytes(header(LIST, 99), new byte[] {LIST}, i32(1)),
                bytes(new byte[] {LIST}, i32(1)))));

    // Invalid UTF-8 in a top-level and in a nested string.
    byte[][] invalid = {
      {'a', (byte) 0xC3, '('}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}
    };
    for (int i = 0; i < invalid.length; i++) {
      out.add(
          plain(
              "utf8-note-" + i,
              bytes(idField(), header(STRING, 2), i32(invalid[i].length), invalid[i], stop()),
              Expected.deadLetter(Stage.DECODE, "UTF-8")));
      out.add(
          plain(
              "utf8-nested-" + i,
              bytes(
                  idField(),
                  header(STRUCT, 6),
                  header(I32, 1),
                  i32(7),
                  header(STRING, 2),
                  i32(invalid[i].length),
                  invalid[i],
                  stop(),
                  stop()),
              Expected.deadLetter(Stage.DECODE, "UTF-8")));
    }

    // Wrong wire types: a required field's is skipped (so it is missing), an optional one's is
    // skipped (a row without it), a container's element type is refused.
    out.add(
        plain(
            "wire-required-as-i32",
            bytes(header(I32, 1), i32(5), stop()),
            Expected.deadLetter(Stage.DECODE, "Required field 'id'")));
    out.add(
        plain(
            "wire-optional-as-string",
            bytes(idField(), header(STRING, 3), i32(3), "abc", stop()),
            Expected.row()));
    out.add(
        plain(
            "wire-list-elements",
            bytes(idField(), header(LIST, 4), new byte[] {I32}, i32(1), i32(9), stop()),
            Expected.deadLetter(Stage.DECODE, "wire type")));
    out.add(deadAtDecode("wire-type-unknown", bytes(idField(), new byte[] {0x7f, 0, 2})));
    out.add(
        plain(
            "trailing-bytes",
            bytes(events.serialize(3), new byte[] {1, 2, 3}),
            Expected.deadLetter(Stage.DECODE, "bytes left")));

    // Corrupt envelopes: the whole envelope is the dead letter, at UNPACK.
    List<byte[]> three = List.of(events.serialize(4), events.serialize(5), events.serialize(6));
    byte[] envelope = EventEnvelope.pack(three);
    byte[] garbage = new byte[200];
    random.nextBytes(garbage);
    out.add(deadEnvelope("envelope-garbage", garbage, EventEnvelope.envelopeAttributes(3)));
    out.add(
        deadEnvelope(
            "envelope-truncated",
            Arrays.copyOf(envelope, envelope.length / 2),
            EventEnvelope.envelopeAttributes(3)));
    out.add(deadEnvelope("envelope-count-too-low", envelope, EventEnvelope.envelopeAttributes(2)));
    out.add(
        deadEnvelope(
            "envelope-count-too-high",
            envelope,
            EventEnvelope.envelopeAttributes(Integer.MAX_VALUE)));
    Map<String, String> unknownVersion = new HashMap<>(EventEnvelope.envelopeAttributes(3));
    unknownVersion.put(EventEnvelope.ENVELOPE_ATTRIBUTE, "deflate-v9");
    out.add(deadEnvelope("envelope-version", envelope, unknownVersion));
    out.add(
        deadEnvelope(
            "envelope-length-prefix-2^31",
            deflate(bytes(new byte[] {(byte) 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff}, "ab")),
            EventEnvelope.envelopeAttributes(1)));
    // A decompression bomb: 40 KB that inflate to one 40 MB member. No event can be larger than a
    // Pub/Sub message, and a dead-letter row could not hold its bytes, so the envelope is the
    // dead letter.
    byte[] bomb = EventEnvelope.pack(List.of(new byte[40 << 20]));
    out.add(deadEnvelope("envelope-bomb", bomb, EventEnvelope.envelopeAttributes(1)));
    // An envelope with one bad member among good ones: the good ones are rows.
    byte[] badMember = Arrays.copyOf(events.serialize(8), 5);
    byte[] mixed = EventEnvelope.pack(List.of(events.serialize(7), badMember, events.serialize(9)));
    out.add(
        new Hostile(
            "envelope-one-bad-member",
            message("envelope-one-bad-member", mixed, EventEnvelope.envelopeAttributes(3)),
            new Expected(2, List.of(Stage.DECODE), null),
            List.of(badMember)));

    // Attributes with huge values, many attributes, an unreadable event time: valid events.
    Map<String, String> huge = new LinkedHashMap<>();
    huge.put("big", "v".repeat(1 << 20));
    out.add(
        new Hostile("attr-1mb", message("attr-1mb", events.serialize(10), huge), row(), none()));
    Map<String, String> many = new LinkedHashMap<>();
    for (int i = 0; i < 98; i++) { // Pub/Sub allows 100 attributes; the test adds two
      many.put("k" + i + "_" + "x".repeat(200), "y".repeat(1024));
    }
    out.add(
        new Hostile("attr-many", message("attr-many", events.serialize(11), many), row(), none()));
    Map<String, String> badTime = new LinkedHashMap<>();
    badTime.put(EventAttributes.EVENT_TIME_MS, "not a number");
    badTime.put(EventAttributes.EVENT_ID, "\u0000\uFFFF" + "é".repeat(500));
    out.add(
        new Hostile(
            "attr-bad-values",
            message("attr-bad-values", events.serialize(12), badTime),
            row(),
            none()));
    return out;
  }

  private static Expected row() {
    return Expected.row();
  }

  private static List<byte[]> none() {
    return List.of();
  }

  private static Hostile plain(String id, byte[] payload, Expected expected) {
    return new Hostile(
        id,
        message(id, payload, Map.of()),
        expected,
        expected.deadLetterStages().isEmpty() ? List.of() : List.of(payload));
  }

  private static Hostile deadAtDecode(String id, byte[] payload) {
    return plain(id, payload, Expected.deadLetter(Stage.DECODE, null));
  }

  private static Hostile deadEnvelope(String id, byte[] payload, Map<String, String> attributes) {
    return new Hostile(
        id,
        message(id, payload, attributes),
        Expected.deadLetter(Stage.UNPACK, null),
        List.of(payload));
  }

  private static PubsubEmulator.RawMessage message(
      String id, byte[] payload, Map<String, String> extra) {
    Map<String, String> attributes = new LinkedHashMap<>();
    attributes.put(EventAttributes.EVENT_TIME_MS, Long.toString(System.currentTimeMillis()));
    attributes.putAll(extra);
    attributes.put(HOSTILE_ID, id);
    return new PubsubEmulator.RawMessage(payload, attributes);
  }

  /**
   * Publishes small messages in batches and each large one alone (a Pub/Sub request holds 10 MB,
   * the local Kafka broker takes records of up to 11 MiB).
   */
  private static void publish(EventSource channel, List<Hostile> hostile) throws Exception {
    List<SourceMessage> batch = new ArrayList<>();
    long batchBytes = 0;
    for (Hostile message : hostile) {
      long size = message.message().data().length;
      for (Map.Entry<String, String> a : message.message().attributes().entrySet()) {
        size += a.getKey().length() + a.getValue().length();
      }
      if (!batch.isEmpty() && (batchBytes + size > 2_000_000 || batch.size() >= 200)) {
        channel.publish(batch);
        batch = new ArrayList<>();
        batchBytes = 0;
      }
      batch.add(new SourceMessage(message.message().data(), message.message().attributes()));
      batchBytes += size;
    }
    if (!batch.isEmpty()) {
      channel.publish(batch);
    }
  }

  /** The longest of the first {@code n} generated events: the most fields to cut through. */
  private static byte[] richest(RandomEventGenerator events, int n) {
    byte[] best = new byte[0];
    for (int i = 0; i < n; i++) {
      byte[] event = events.serialize(1000 + i);
      if (event.length > best.length && event.length < 2000) {
        best = event;
      }
    }
    return best;
  }

  private static byte[] nested(byte[] outer, byte[] inner) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(idField());
    out.writeBytes(outer);
    for (int i = 1; i < 10_000; i++) {
      out.writeBytes(inner);
    }
    return out.toByteArray();
  }

  private static byte[] idField() {
    return bytes(header(STRING, 1), i32(2), "id");
  }

  private static byte[] header(byte type, int id) {
    return new byte[] {type, (byte) (id >> 8), (byte) id};
  }

  private static byte[] i32(int value) {
    return ByteBuffer.allocate(4).putInt(value).array();
  }

  private static byte[] stop() {
    return new byte[] {STOP};
  }

  private static byte[] bytes(Object... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object part : parts) {
      out.writeBytes(
          part instanceof String s
              ? s.getBytes(java.nio.charset.StandardCharsets.UTF_8)
              : (byte[]) part);
    }
    return out.toByteArray();
  }

  private static byte[] deflate(byte[] data) {
    Deflater deflater = new Deflater();
    deflater.setInput(data);
    deflater.finish();
    byte[] buffer = new byte[data.length + 64];
    int length = deflater.deflate(buffer);
    deflater.end();
    return Arrays.copyOf(buffer, length);
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes))
          + " ("
          + bytes.length
          + " bytes)";
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Per hostile id: stage, reason and payload (base64) of each dead letter. */
  private static Map<String, List<JsonNode[]>> deadLettersById(EmulatorStack stack, String table)
      throws Exception {
    Map<String, List<JsonNode[]>> out = new TreeMap<>();
    for (Map<String, JsonNode> row :
        stack
            .bigquery()
            .query(
                "SELECT a.value AS id, d.stage AS stage, d.error_message AS reason,"
                    + " d.payload AS payload FROM "
                    + TableQueries.qualified(table + DeadLetterTables.DEFAULT_SUFFIX)
                    + " AS d, UNNEST(d.attributes) AS a WHERE a.key = '"
                    + HOSTILE_ID
                    + "'")) {
      out.computeIfAbsent(row.get("id").asText(), k -> new ArrayList<>())
          .add(new JsonNode[] {row.get("stage"), row.get("reason"), row.get("payload")});
    }
    return out;
  }
}
