package io.thriftbq.datagen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * The final state a {@link ChangeStream} must leave in BigQuery: per struct and key, the winning
 * change. Written as JSON lines, one object per key:
 *
 * <pre>{@code
 * {"struct":"Order","key":{"order_id":"key-7"},"changeType":"UPSERT",
 *  "sequence":"8000000000000006","message":1234,"payload":"CwABAAAABWtleS03..."}
 * }</pre>
 *
 * <p>{@code key} holds the key columns as BigQuery shows them (INT64 as a JSON number, STRING,
 * BOOLEAN, an enum as its name); {@code sequence} is the winner's BigQuery sequence number, absent
 * when the job has no sequence field; {@code message} is the winner's position in the stream;
 * {@code payload} the winner's Thrift bytes (the configured protocol), base64: decode them with the
 * project's converter to get the expected row. A key whose winner is a {@code DELETE} must have no
 * row.
 */
public final class ExpectedState {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One key's winning change.
   *
   * @param struct the struct's name (its IDL name, as in {@code --primaryKey})
   * @param key the key columns by name, in {@code --primaryKey} order
   * @param changeType the winner's change type: DELETE means the key has no row
   * @param sequence the winner's BigQuery sequence number, or null without a sequence field
   * @param message the winner's number in the stream
   * @param payload the winner's Thrift bytes
   */
  public record Entry(
      String struct,
      Map<String, Object> key,
      ChangeStream.ChangeType changeType,
      @Nullable String sequence,
      long message,
      byte[] payload) {
    public Entry {
      key = Collections.unmodifiableMap(new LinkedHashMap<>(key));
    }

    /** Whether the key has a row at the end: its winner is an upsert. */
    public boolean present() {
      return changeType == ChangeStream.ChangeType.UPSERT;
    }
  }

  private final List<Entry> entries;

  public ExpectedState(List<Entry> entries) {
    this.entries = List.copyOf(entries);
  }

  /** Every key's winner, by struct (in the mix's order) then key number. */
  public List<Entry> entries() {
    return entries;
  }

  /** The entries of the keys that have a row at the end (whose winner is an upsert). */
  public List<Entry> rows() {
    return entries.stream().filter(Entry::present).toList();
  }

  /** The entries of {@code struct}. */
  public List<Entry> entries(String struct) {
    return entries.stream().filter(entry -> entry.struct().equals(struct)).toList();
  }

  /** Writes the JSON lines to {@code file}, replacing it; creates missing parent directories. */
  public void write(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (Entry entry : entries) {
        out.write(toJson(entry));
        out.write('\n');
      }
    }
  }

  /** Reads a file {@link #write} wrote. */
  public static ExpectedState read(Path file) throws IOException {
    List<Entry> entries = new ArrayList<>();
    try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String line;
      int number = 0;
      while ((line = in.readLine()) != null) {
        number++;
        if (line.isBlank()) {
          continue;
        }
        try {
          entries.add(fromJson(line));
        } catch (RuntimeException e) {
          throw new IOException(file + " line " + number + " is not an expected-state entry", e);
        }
      }
    }
    return new ExpectedState(entries);
  }

  /** One entry as a line of JSON (without the newline). */
  public static String toJson(Entry entry) {
    ObjectNode node = JSON.createObjectNode();
    node.put("struct", entry.struct());
    ObjectNode key = node.putObject("key");
    entry
        .key()
        .forEach(
            (name, value) -> {
              if (value instanceof Boolean bool) {
                key.put(name, bool);
              } else if (value instanceof Number number) {
                key.put(name, number.longValue());
              } else {
                key.put(name, String.valueOf(value));
              }
            });
    node.put("changeType", entry.changeType().name());
    if (entry.sequence() != null) {
      node.put("sequence", entry.sequence());
    }
    node.put("message", entry.message());
    node.put("payload", Base64.getEncoder().encodeToString(entry.payload()));
    return node.toString();
  }

  /** Parses one line {@link #toJson} wrote. */
  public static Entry fromJson(String line) {
    JsonNode node;
    try {
      node = JSON.readTree(line);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
    }
    Map<String, Object> key = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.required("key").fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> column = it.next();
      JsonNode value = column.getValue();
      key.put(
          column.getKey(),
          value.isBoolean()
              ? (Object) value.booleanValue()
              : value.isIntegralNumber() ? (Object) value.longValue() : value.asText());
    }
    JsonNode sequence = node.get("sequence");
    return new Entry(
        node.required("struct").asText(),
        key,
        ChangeStream.ChangeType.valueOf(node.required("changeType").asText()),
        sequence == null || sequence.isNull() ? null : sequence.asText(),
        node.required("message").asLong(),
        Base64.getDecoder().decode(node.required("payload").asText()));
  }
}
