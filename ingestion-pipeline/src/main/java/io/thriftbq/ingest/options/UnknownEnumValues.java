package io.thriftbq.ingest.options;

/**
 * What the decoder does with an enum field whose number the IDL does not name ({@code
 * --unknownEnumValues}), typically sent by a producer already on a newer IDL.
 */
public enum UnknownEnumValues {
  /** Store the number as the string {@code UNKNOWN_<n>}, so the row is kept and can be mapped. */
  KEEP,
  /** Send the event to the dead-letter table (stage DECODE) naming the field and the number. */
  DEAD_LETTER
}
