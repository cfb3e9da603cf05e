package io.thriftbq.ingest.write;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** Reads TIMESTAMP text in the shapes BigQuery and Beam print it. */
public final class Timestamps {
  private Timestamps() {}

  /**
   * Parses "2024-05-01T12:00:00.123Z", "2024-05-01 12:00:00.123456 UTC", "2024-05-01
   * 12:00:00.123456" (UTC implied), an explicit offset, and the "2024-05-01 T12:00:00.123" that
   * Beam's Storage API row conversion produces.
   *
   * @throws DateTimeParseException if the text is none of these
   */
  public static Instant parse(String text) {
    String iso = text.trim();
    if (iso.endsWith(" UTC")) {
      iso = iso.substring(0, iso.length() - 4) + "Z";
    }
    iso = iso.replace(" T", "T").replaceFirst(" ", "T");
    try {
      return Instant.parse(iso);
    } catch (DateTimeParseException noZone) {
      try {
        return OffsetDateTime.parse(iso).toInstant();
      } catch (DateTimeParseException noOffset) {
        return Instant.parse(iso + "Z");
      }
    }
  }
}
