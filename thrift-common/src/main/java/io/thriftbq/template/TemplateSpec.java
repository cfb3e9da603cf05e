package io.thriftbq.template;

import java.util.List;
import java.util.Objects;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * A flex template: its console name and description, the options interface whose options are its
 * parameters, and each parameter's console details, in console order.
 *
 * @param name the template's name
 * @param description the template's description
 * @param optionsClass the pipeline's options interface
 * @param parameters one entry per parameter, in order; every option declared by {@code
 *     optionsClass} must have one, and so may options it inherits from Beam (the tuning knobs)
 */
public record TemplateSpec(
    String name,
    String description,
    Class<? extends PipelineOptions> optionsClass,
    List<TemplateParameter> parameters) {

  public TemplateSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(optionsClass, "optionsClass");
    parameters = List.copyOf(parameters);
  }

  /** Every parameter's option, in the spec's order (the order the docs list them in). */
  public List<OptionDoc> options() {
    List<OptionDoc> docs = new java.util.ArrayList<>();
    for (TemplateParameter parameter : parameters) {
      docs.add(OptionDoc.of(optionsClass, parameter.name()));
    }
    return docs;
  }
}
