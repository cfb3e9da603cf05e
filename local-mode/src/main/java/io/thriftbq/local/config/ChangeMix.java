package io.thriftbq.local.config;

import java.util.Locale;

/**
 * {@code --changes}: a local run publishes a change stream (the generator's {@code ChangeStream})
 * instead of one new event per message, and checks the table's final state against the expected
 * one: so many distinct keys, and these shares of the messages updating a key seen before, deleting
 * one, resending a recent message as it was (a redelivery) and carrying an older change than one
 * already sent (out of order).
 *
 * @param keys distinct keys per struct; 0 lets the generator choose (a third of the events)
 */
public record ChangeMix(
    long keys, double updates, double deletes, double duplicates, double reorder) {

  public static final String USAGE = "keys=N,updates=R,deletes=R,duplicates=R,reorder=R";

  public ChangeMix {
    for (double share : new double[] {updates, deletes, duplicates, reorder}) {
      if (share < 0 || share > 1) {
        throw new IllegalArgumentException("--changes shares must be between 0 and 1: " + USAGE);
      }
    }
    if (updates + deletes + duplicates + reorder > 1) {
      throw new IllegalArgumentException(
          "--changes shares add up to more than 1 (the rest of the messages are new keys)");
    }
    if (keys < 0) {
      throw new IllegalArgumentException("--changes keys must be positive");
    }
  }

  /** Parses {@code keys=N,updates=R,deletes=R,duplicates=R,reorder=R} (any subset, default 0). */
  public static ChangeMix parse(String text) {
    long keys = 0;
    double updates = 0;
    double deletes = 0;
    double duplicates = 0;
    double reorder = 0;
    for (String part : text.split(",")) {
      String entry = part.trim();
      if (entry.isEmpty()) {
        continue;
      }
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("--changes takes " + USAGE + ", got '" + entry + "'");
      }
      String name = entry.substring(0, eq).trim().toLowerCase(Locale.ROOT);
      String value = entry.substring(eq + 1).trim();
      try {
        switch (name) {
          case "keys" -> keys = Long.parseLong(value);
          case "updates" -> updates = Double.parseDouble(value);
          case "deletes" -> deletes = Double.parseDouble(value);
          case "duplicates" -> duplicates = Double.parseDouble(value);
          case "reorder" -> reorder = Double.parseDouble(value);
          default ->
              throw new IllegalArgumentException(
                  "--changes has no '" + name + "': it takes " + USAGE);
        }
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--changes " + name + "=" + value + " is not a number");
      }
    }
    return new ChangeMix(keys, updates, deletes, duplicates, reorder);
  }
}
