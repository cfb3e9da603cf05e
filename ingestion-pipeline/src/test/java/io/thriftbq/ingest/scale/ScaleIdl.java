package io.thriftbq.ingest.scale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * An IDL with {@code n} event structs of realistic shape, for measuring how the many-types job
 * graph grows: each struct has 15 fields (strings, numbers, an enum, a list of nested structs that
 * hold a map and a struct, a map of structs, a set, a list of strings, binary) and its own nested
 * structs with distinct names, as an estate of independently designed event types would; the {@code
 * AnyEvent} union wraps them all. Events generated from it with the generator's defaults are around
 * 1 KB.
 */
public final class ScaleIdl {
  public static final String UNION = "AnyEvent";

  private ScaleIdl() {}

  /** The struct names of an {@code n}-struct IDL, in the order {@link #write} declares them. */
  public static List<String> structs(int n) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      names.add(String.format("Event%02d", i));
    }
    return names;
  }

  /** Writes the IDL of {@code n} structs to {@code dir}/scale_N.thrift and returns its path. */
  public static Path write(Path dir, int n) throws IOException {
    Path file = dir.resolve("scale_" + n + ".thrift");
    Files.writeString(file, text(n), StandardCharsets.UTF_8);
    return file;
  }

  static String text(int n) {
    StringBuilder idl = new StringBuilder();
    idl.append("namespace java io.thriftbq.examples.scale\n\n");
    idl.append("enum Currency {\n  EUR = 1,\n  USD = 2,\n  JPY = 3,\n}\n\n");
    List<String> names = structs(n);
    for (String name : names) {
      String k = name.substring("Event".length());
      idl.append(
          String.format(
              """
              struct Money%1$s {
                1: required i64 units,
                2: required Currency currency,
              }

              struct Geo%1$s {
                1: required double lat,
                2: required double lon,
              }

              struct Address%1$s {
                1: optional string street,
                2: optional string city,
                3: optional string postal_code,
                4: optional string country,
                5: optional Geo%1$s geo,
              }

              struct Device%1$s {
                1: optional string os,
                2: optional string model,
                3: optional string app_version,
                4: optional i32 screen_width,
                5: optional i32 screen_height,
              }

              struct LineItem%1$s {
                1: required string sku,
                2: required i32 quantity,
                3: optional Money%1$s unit_price,
                4: optional map<string, string> attributes,
              }

              struct %2$s {
                1: required string event_id,
                2: required i64 created_at_ms,
                3: required string customer_id,
                4: optional list<LineItem%1$s> items,
                5: optional Money%1$s total,
                6: optional map<string, string> tags,
                7: optional Address%1$s shipping,
                8: optional set<string> labels,
                9: optional i32 channel,
                10: optional double score,
                11: optional bool flagged,
                12: optional binary tracking,
                13: optional Device%1$s device,
                14: optional list<string> path,
                15: optional map<string, Money%1$s> fees,
              }

              """,
              k, name));
    }
    idl.append("union ").append(UNION).append(" {\n");
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      idl.append("  ")
          .append(i + 1)
          .append(": ")
          .append(name)
          .append(' ')
          .append(name.toLowerCase(java.util.Locale.ROOT))
          .append(",\n");
    }
    idl.append("}\n");
    return idl.toString();
  }
}
