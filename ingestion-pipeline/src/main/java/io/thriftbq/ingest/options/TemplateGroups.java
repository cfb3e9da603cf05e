package io.thriftbq.ingest.options;

import java.util.List;

/**
 * The groups the flex template shows its parameters in, named by each option's {@code
 * TemplateParameter}.
 */
public final class TemplateGroups {
  public static final String SOURCE = "Source";
  public static final String DECODING = "Decoding";
  public static final String OUTPUT = "Output";
  public static final String TUNING = "Tuning";

  /** The groups in console order. */
  public static final List<String> IN_CONSOLE_ORDER = List.of(SOURCE, DECODING, OUTPUT, TUNING);

  private TemplateGroups() {}
}
