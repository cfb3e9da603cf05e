package io.thriftbq.template;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a flex-template parameter shows in the Dataflow console beyond what its option declares: the
 * label, group, type and input checks. The help text, default, requiredness and enum values come
 * from the option itself ({@link FlexTemplateMetadata}).
 *
 * @param name the option's name, as on the command line without {@code --}
 * @param label the console label
 * @param group the console group
 * @param type the console parameter type
 * @param regexes patterns a value must match
 * @param enumLabels labels of an enum option's values, by value name
 * @param requiredOverride true for an option the pipeline checks itself instead of with {@code
 *     Validation.Required} (so local runs may fill it in) but that a template run needs
 */
public record TemplateParameter(
    String name,
    String label,
    String group,
    ParamType type,
    List<String> regexes,
    Map<String, String> enumLabels,
    boolean requiredOverride) {

  /** Dataflow's {@code paramType} values this project uses. */
  public enum ParamType {
    TEXT,
    NUMBER,
    BOOLEAN,
    ENUM,
    PUBSUB_TOPIC,
    PUBSUB_SUBSCRIPTION,
    BIGQUERY_TABLE,
    GCS_READ_FILE
  }

  public TemplateParameter {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(label, "label");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(type, "type");
    regexes = List.copyOf(regexes);
    enumLabels = Map.copyOf(enumLabels);
  }

  public static TemplateParameter of(String name, String label, String group, ParamType type) {
    return new TemplateParameter(name, label, group, type, List.of(), Map.of(), false);
  }

  public TemplateParameter withRegex(String regex) {
    List<String> all = new java.util.ArrayList<>(regexes);
    all.add(regex);
    return new TemplateParameter(name, label, group, type, all, enumLabels, requiredOverride);
  }

  public TemplateParameter withEnumLabels(Map<String, String> labels) {
    return new TemplateParameter(name, label, group, type, regexes, labels, requiredOverride);
  }

  public TemplateParameter required() {
    return new TemplateParameter(name, label, group, type, regexes, enumLabels, true);
  }

  @Nullable String enumLabel(String value) {
    return enumLabels.get(value);
  }
}
