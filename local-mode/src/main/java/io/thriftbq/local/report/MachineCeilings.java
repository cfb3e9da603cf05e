package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.stack.LoopbackHttp;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * This machine's bare emulator ceilings, measured in the same run as the figures they are put
 * beside (by {@code io.thriftbq.local.run.BareCeilings}, which {@code EmulatorCeilings} runs too):
 * a local figure means little without what the machine could do at best, since machines of one
 * class differ several times in speed.
 *
 * @param events the events (messages, rows) each ceiling was measured with
 * @param ceilings in the order measured
 */
public record MachineCeilings(int events, List<Ceiling> ceilings) {
  /** The key of each compared step's report (JSON) that holds the ceilings. */
  public static final String KEY = "machine_ceilings";

  /** The ceiling local mode's step figures are set against: Storage Write appends of 500 rows. */
  public static final int APPEND_ROWS = 500;

  static final String HOW =
      "bare clients, no pipeline, measured on the same emulators before the steps: Pub/Sub"
          + " publish (gRPC, as local mode's publisher) and pull + acknowledge (Beam's gRPC client,"
          + " as local mode's reader, asking for 1,000 per pull; the emulator returns at most 100)"
          + " of the sample events, and Storage Write"
          + " appends of the same rows to a table's _default stream (pipelined requests of the"
          + " given size, and at "
          + APPEND_ROWS
          + " rows one request in flight at a time, as a BigQueryIO write that waits for its"
          + " appends at the end of each bundle sends them); per second of wall time.";

  private static final String EVENTS = "events";
  private static final String CEILINGS = "ceilings";
  private static final String NAME = "key";
  private static final String WHAT = "what";
  private static final String PER_SEC = "per_sec";
  private static final String SUSTAINED_PER_APPEND_CEILING = "sustained_per_append_ceiling";
  private static final String STEADY_PER_APPEND_CEILING = "steady_per_append_ceiling";

  /**
   * One ceiling.
   *
   * @param key a stable name, for the JSON and {@code benchmarks/local-ab.sh}'s ceilings.tsv
   * @param what what was measured, in words
   * @param perSecond messages or rows per second of wall time
   */
  public record Ceiling(String key, String what, double perSecond) {}

  public MachineCeilings {
    ceilings = List.copyOf(ceilings);
  }

  /** The key of the append ceiling at {@code rowsPerRequest} rows per request. */
  public static String appendKey(int rowsPerRequest) {
    return "storage_write_append_" + rowsPerRequest;
  }

  /**
   * The key of the append ceiling at {@code rowsPerRequest} rows per request sent one at a time,
   * each after the answer to the one before.
   */
  public static String oneInFlightAppendKey(int rowsPerRequest) {
    return appendKey(rowsPerRequest) + "_one_in_flight";
  }

  /** The append ceiling at {@link #APPEND_ROWS} rows per request; null when it was not measured. */
  public @Nullable Double appendCeiling() {
    for (Ceiling ceiling : ceilings) {
      if (ceiling.key().equals(appendKey(APPEND_ROWS))) {
        return ceiling.perSecond();
      }
    }
    return null;
  }

  /** {@code rowsPerSec} as a share of the append ceiling; null when either is missing. */
  public @Nullable Double ofAppendCeiling(@Nullable Double rowsPerSec) {
    Double ceiling = appendCeiling();
    return rowsPerSec == null || ceiling == null || ceiling <= 0 ? null : rowsPerSec / ceiling;
  }

  /** One line for the terminal and the page: every ceiling. */
  public String describe() {
    StringBuilder s =
        new StringBuilder(
            String.format(Locale.ROOT, "This machine's bare ceilings (%,d events each): ", events));
    for (int i = 0; i < ceilings.size(); i++) {
      Ceiling ceiling = ceilings.get(i);
      s.append(i == 0 ? "" : "; ")
          .append(ceiling.what())
          .append(String.format(Locale.ROOT, " %,.0f/s", ceiling.perSecond()));
    }
    return s.append('.').toString();
  }

  /**
   * The JSON of a compared step's report: the ceilings and the step's rates as shares of the append
   * one, each left out when not measured.
   */
  public ObjectNode toJson(
      @Nullable Double sustainedRowsPerSec, @Nullable Double steadyRowsPerSec) {
    ObjectNode json = LoopbackHttp.JSON.createObjectNode();
    json.put("how", HOW);
    json.put(EVENTS, events);
    ArrayNode list = json.putArray(CEILINGS);
    for (Ceiling ceiling : ceilings) {
      list.addObject()
          .put(NAME, ceiling.key())
          .put(WHAT, ceiling.what())
          .put(PER_SEC, ReportFigures.round(ceiling.perSecond()));
    }
    putShare(json, SUSTAINED_PER_APPEND_CEILING, ofAppendCeiling(sustainedRowsPerSec));
    putShare(json, STEADY_PER_APPEND_CEILING, ofAppendCeiling(steadyRowsPerSec));
    return json;
  }

  private static void putShare(ObjectNode json, String key, @Nullable Double share) {
    if (share != null) {
      json.put(key, Math.round(share * 1000) / 1000.0);
    }
  }

  /** The ceilings of {@link #toJson}. */
  public static MachineCeilings fromJson(JsonNode json) {
    List<Ceiling> ceilings = new ArrayList<>();
    for (JsonNode ceiling : json.path(CEILINGS)) {
      ceilings.add(
          new Ceiling(
              ceiling.path(NAME).asText(),
              ceiling.path(WHAT).asText(),
              ceiling.path(PER_SEC).asDouble()));
    }
    return new MachineCeilings(json.path(EVENTS).asInt(), ceilings);
  }
}
