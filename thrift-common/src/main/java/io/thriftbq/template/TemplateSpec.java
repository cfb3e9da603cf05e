package io.thriftbq.template;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * A flex template: its console name and description, the options interface whose options are its
 * parameters, and the console layout. Each parameter's console details are on its getter ({@link
 * TemplateParameter}); the spec only orders the groups and places what a getter cannot say itself.
 *
 * @param name the template's name
 * @param description the template's description
 * @param optionsClass the pipeline's options interface: every option it and the project's
 *     interfaces it extends declare is a parameter, and must carry {@link TemplateParameter}
 * @param groups the console groups, in console order
 * @param placements where each shared interface's parameters go (their getters name no group,
 *     because each template shows them in its own place)
 * @param inheritedParameters interfaces that redeclare options {@code optionsClass} inherits from
 *     Beam, only to carry their {@link TemplateParameter} (Beam's getters cannot); no pipeline uses
 *     them as options
 */
public record TemplateSpec(
    String name,
    String description,
    Class<? extends PipelineOptions> optionsClass,
    List<String> groups,
    List<Placement> placements,
    List<Class<?>> inheritedParameters) {

  /**
   * The parameters of a shared options interface, shown in {@code group} at {@code order}: after
   * any parameter of that order, in their own {@link TemplateParameter#order}.
   */
  public record Placement(Class<?> sharedOptions, String group, int order) {}

  /** A parameter as the console shows it: its option, group and console details. */
  public record Parameter(OptionDoc option, String group, TemplateParameter details) {
    /** The console type, derived from the option's Java type unless the getter names one. */
    public TemplateParameter.ParamType type() {
      if (details.type() != TemplateParameter.ParamType.FROM_JAVA_TYPE) {
        return details.type();
      }
      Class<?> type = option.type();
      if (type == Boolean.class || type == boolean.class) {
        return TemplateParameter.ParamType.BOOLEAN;
      }
      if (type.isEnum()) {
        return TemplateParameter.ParamType.ENUM;
      }
      if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
        return TemplateParameter.ParamType.NUMBER;
      }
      return TemplateParameter.ParamType.TEXT;
    }
  }

  public TemplateSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(optionsClass, "optionsClass");
    groups = List.copyOf(groups);
    placements = List.copyOf(placements);
    inheritedParameters = List.copyOf(inheritedParameters);
  }

  /** A template with these groups, no shared interface placed and no inherited parameter. */
  public static TemplateSpec of(
      String name,
      String description,
      Class<? extends PipelineOptions> optionsClass,
      List<String> groups) {
    return new TemplateSpec(name, description, optionsClass, groups, List.of(), List.of());
  }

  /**
   * This template with {@code sharedOptions}' parameters shown in {@code group} at {@code order}.
   */
  public TemplateSpec placing(Class<?> sharedOptions, String group, int order) {
    List<Placement> all = new ArrayList<>(placements);
    all.add(new Placement(sharedOptions, group, order));
    return new TemplateSpec(name, description, optionsClass, groups, all, inheritedParameters);
  }

  /** This template with the inherited options that {@code redeclaring} annotates as parameters. */
  public TemplateSpec withInheritedParameters(Class<?> redeclaring) {
    List<Class<?>> all = new ArrayList<>(inheritedParameters);
    all.add(redeclaring);
    return new TemplateSpec(name, description, optionsClass, groups, placements, all);
  }

  /**
   * Every parameter, in console order: by group, then order.
   *
   * @throws IllegalArgumentException if an option has no {@link TemplateParameter}, a parameter's
   *     group is not one of {@link #groups} (or its shared interface is not placed), two parameters
   *     take the same place, or an inherited parameter is not an option of {@link #optionsClass}
   */
  public List<Parameter> parameters() {
    Map<String, Method> getters = new HashMap<>();
    OptionDoc.annotatedGetters(optionsClass, getters);
    for (OptionDoc declared : OptionDoc.declaredBy(optionsClass)) {
      if (!getters.containsKey(declared.name())) {
        throw new IllegalArgumentException(
            "Option --"
                + declared.name()
                + " of "
                + optionsClass.getSimpleName()
                + " is not a template parameter: annotate its getter with @TemplateParameter");
      }
    }
    for (Class<?> redeclaring : inheritedParameters) {
      for (Method getter : redeclaring.getDeclaredMethods()) {
        String option = OptionDoc.propertyName(getter);
        if (option != null && getter.isAnnotationPresent(TemplateParameter.class)) {
          OptionDoc.of(optionsClass, option); // fails unless the pipeline inherits it
          getters.put(option, getter);
        }
      }
    }
    List<Placed> placed = new ArrayList<>();
    for (Map.Entry<String, Method> entry : getters.entrySet()) {
      placed.add(place(entry.getKey(), entry.getValue()));
    }
    placed.sort(Placed.CONSOLE_ORDER);
    for (int i = 1; i < placed.size(); i++) {
      if (Placed.CONSOLE_ORDER.compare(placed.get(i - 1), placed.get(i)) == 0) {
        throw new IllegalArgumentException(
            placed.get(i - 1).parameter().option().name()
                + " and "
                + placed.get(i).parameter().option().name()
                + " take the same place in group "
                + placed.get(i).parameter().group()
                + ": give one another order");
      }
    }
    return placed.stream().map(Placed::parameter).toList();
  }

  /** Every parameter's option, in console order (the order the docs list them in). */
  public List<OptionDoc> options() {
    return parameters().stream().map(Parameter::option).toList();
  }

  private Placed place(String option, Method getter) {
    TemplateParameter details = getter.getAnnotation(TemplateParameter.class);
    OptionDoc doc = OptionDoc.of(optionsClass, option);
    if (doc.description().isEmpty()) {
      throw new IllegalArgumentException("Option --" + option + " has no @Description");
    }
    String group = details.group();
    int order = details.order();
    int within = 0;
    if (group.isEmpty()) {
      Placement placement =
          placements.stream()
              .filter(p -> p.sharedOptions().equals(getter.getDeclaringClass()))
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalArgumentException(
                          "Option --"
                              + option
                              + " names no group and "
                              + getter.getDeclaringClass().getSimpleName()
                              + " is not placed: call TemplateSpec.placing"));
      group = placement.group();
      order = placement.order();
      within = details.order();
    }
    int groupIndex = groups.indexOf(group);
    if (groupIndex < 0) {
      throw new IllegalArgumentException(
          "Option --" + option + " is in group '" + group + "', not one of " + groups);
    }
    return new Placed(new Parameter(doc, group, details), groupIndex, order, within);
  }

  /** A parameter and its console place: group, order, then order within a placed interface. */
  private record Placed(Parameter parameter, int group, int order, int within) {
    static final Comparator<Placed> CONSOLE_ORDER =
        Comparator.comparingInt(Placed::group)
            .thenComparingInt(Placed::order)
            .thenComparingInt(Placed::within);
  }
}
