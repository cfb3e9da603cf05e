package io.thriftbq.template;

import java.util.List;

/** Markdown tables of options, generated from the options themselves (see {@link OptionDoc}). */
public final class OptionTable {
  private OptionTable() {}

  /**
   * A table of {@code options}: option, default, description ({@code summary} gives the first
   * sentence only).
   */
  public static String markdown(List<OptionDoc> options, boolean summary) {
    StringBuilder table = new StringBuilder("| Option | Default | What it does |\n|---|---|---|\n");
    for (OptionDoc option : options) {
      String description = summary ? option.summary() : option.description();
      table
          .append("| `--")
          .append(option.name())
          .append("` | ")
          .append(
              option.required()
                  ? "required"
                  : option.defaultValue() == null || option.defaultValue().isEmpty()
                      ? ""
                      : "`" + option.defaultValue() + "`")
          .append(" | ")
          .append(cell(description))
          .append(" |\n");
    }
    return table.toString();
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
