package io.thriftbq.template;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Renders a flex template's {@code metadata.json} (Dataflow's {@code TemplateMetadata}) from a
 * {@link TemplateSpec}: help texts, defaults, requiredness and enum values come from the options,
 * the console details from the spec. The checked-in files are this output (a test in each pipeline
 * keeps them so).
 */
public final class FlexTemplateMetadata {
  private static final ObjectMapper JSON = new ObjectMapper();

  private FlexTemplateMetadata() {}

  /**
   * The metadata JSON, ending with a newline.
   *
   * @throws IllegalArgumentException if an option declared by the options interface has no
   *     parameter, or a parameter names no option
   */
  public static String render(TemplateSpec spec) {
    checkEveryOptionIsAParameter(spec);
    ObjectNode root = JSON.createObjectNode();
    root.put("name", spec.name());
    root.put("description", spec.description());
    root.put("streaming", true);
    root.put("supportsAtLeastOnce", true);
    root.put("supportsExactlyOnce", true);
    root.put("defaultStreamingMode", "EXACTLY_ONCE");
    ArrayNode parameters = root.putArray("parameters");
    for (TemplateParameter ui : spec.parameters()) {
      OptionDoc option = OptionDoc.of(spec.optionsClass(), ui.name());
      ObjectNode p = parameters.addObject();
      p.put("name", ui.name());
      p.put("label", ui.label());
      p.put("helpText", option.description());
      p.put("isOptional", !(option.required() || ui.requiredOverride()));
      p.put("paramType", ui.type().name());
      if (option.defaultValue() != null && !option.defaultValue().isEmpty()) {
        p.put("defaultValue", option.defaultValue());
      }
      if (option.type().isEnum()) {
        if (ui.type() != TemplateParameter.ParamType.ENUM) {
          throw new IllegalArgumentException(ui.name() + " is an enum option: use ParamType.ENUM");
        }
        ArrayNode values = p.putArray("enumOptions");
        for (Object constant : option.type().getEnumConstants()) {
          String value = ((Enum<?>) constant).name();
          String label = ui.enumLabel(value);
          if (label == null) {
            throw new IllegalArgumentException(ui.name() + " has no label for " + value);
          }
          values.addObject().put("value", value).put("label", label);
        }
      }
      if (!ui.regexes().isEmpty()) {
        ArrayNode regexes = p.putArray("regexes");
        ui.regexes().forEach(regexes::add);
      }
      p.put("groupName", ui.group());
    }
    try {
      return JSON.writer(new Printer()).writeValueAsString(root).replace("\r\n", "\n") + "\n";
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void checkEveryOptionIsAParameter(TemplateSpec spec) {
    Set<String> named = new HashSet<>();
    for (TemplateParameter ui : spec.parameters()) {
      if (!named.add(ui.name())) {
        throw new IllegalArgumentException("Parameter " + ui.name() + " is listed twice");
      }
    }
    List<OptionDoc> declared = OptionDoc.declaredBy(spec.optionsClass());
    for (OptionDoc option : declared) {
      if (!named.contains(option.name())) {
        throw new IllegalArgumentException(
            "Option --"
                + option.name()
                + " of "
                + spec.optionsClass().getSimpleName()
                + " is not a template parameter: add it to the template spec");
      }
    }
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
