package io.thriftbq.template;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Renders a flex template's {@code metadata.json} (Dataflow's {@code TemplateMetadata}) from a
 * {@link TemplateSpec}: help texts, defaults, requiredness and enum values come from the options,
 * the console details from each getter's {@link TemplateParameter}. The checked-in files are this
 * output (a test in each pipeline keeps them so).
 */
public final class FlexTemplateMetadata {
  private static final ObjectMapper JSON = new ObjectMapper();

  private FlexTemplateMetadata() {}

  /**
   * The metadata JSON, ending with a newline.
   *
   * @throws IllegalArgumentException if the spec's parameters are not all placed ({@link
   *     TemplateSpec#parameters}), or an enum option's labels do not name each of its values once
   */
  public static String render(TemplateSpec spec) {
    ObjectNode root = JSON.createObjectNode();
    root.put("name", spec.name());
    root.put("description", spec.description());
    root.put("streaming", true);
    root.put("supportsAtLeastOnce", true);
    root.put("supportsExactlyOnce", true);
    root.put("defaultStreamingMode", "EXACTLY_ONCE");
    ArrayNode parameters = root.putArray("parameters");
    for (TemplateSpec.Parameter parameter : spec.parameters()) {
      OptionDoc option = parameter.option();
      TemplateParameter details = parameter.details();
      ObjectNode p = parameters.addObject();
      p.put("name", option.name());
      p.put("label", details.label());
      p.put("helpText", option.description());
      p.put("isOptional", !option.required());
      p.put("paramType", parameter.type().name());
      if (option.defaultValue() != null && !option.defaultValue().isEmpty()) {
        p.put("defaultValue", option.defaultValue());
      }
      if (option.type().isEnum() != (parameter.type() == TemplateParameter.ParamType.ENUM)) {
        throw new IllegalArgumentException(
            option.name() + ": only an enum option is of type ENUM, and it always is");
      }
      if (option.type().isEnum()) {
        ArrayNode values = p.putArray("enumOptions");
        Map<String, String> labels = enumLabels(option.name(), details);
        for (Object constant : option.type().getEnumConstants()) {
          String value = ((Enum<?>) constant).name();
          String label = labels.remove(value);
          if (label == null) {
            throw new IllegalArgumentException(option.name() + " has no label for " + value);
          }
          values.addObject().put("value", value).put("label", label);
        }
        if (!labels.isEmpty()) {
          throw new IllegalArgumentException(
              option.name() + " labels values its enum does not have: " + labels.keySet());
        }
      } else if (details.enumLabels().length > 0) {
        throw new IllegalArgumentException(option.name() + " is no enum but has enum labels");
      }
      if (!details.pattern().isEmpty()) {
        p.putArray("regexes").add(details.pattern());
      }
      p.put("groupName", parameter.group());
    }
    try {
      return JSON.writer(new Printer()).writeValueAsString(root).replace("\r\n", "\n") + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Map<String, String> enumLabels(String option, TemplateParameter details) {
    Map<String, String> labels = new HashMap<>();
    for (TemplateParameter.EnumLabel label : details.enumLabels()) {
      if (labels.put(label.value(), label.label()) != null) {
        throw new IllegalArgumentException(option + " labels " + label.value() + " twice");
      }
    }
    return labels;
  }

  /** Two-space indents, one array element per line, {@code "name": value}: the usual JSON look. */
  private static final class Printer extends DefaultPrettyPrinter {
    private static final long serialVersionUID = 1L;

    Printer() {
      _arrayIndenter = DefaultIndenter.SYSTEM_LINEFEED_INSTANCE;
    }

    @Override
    public DefaultPrettyPrinter createInstance() {
      return new Printer();
    }

    @Override
    public void writeObjectFieldValueSeparator(JsonGenerator generator) throws IOException {
      generator.writeRaw(": ");
    }
  }
}
