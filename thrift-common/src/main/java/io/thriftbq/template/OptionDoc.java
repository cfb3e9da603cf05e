package io.thriftbq.template;

import java.beans.Introspector;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;
import org.apache.beam.sdk.options.Validation;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * What a pipeline option says about itself: its name, description, default, requiredness and type,
 * read from its getter's annotations. With {@link TemplateParameter} on the same getter, the one
 * source of every generated copy (template metadata, option tables in the docs).
 *
 * @param name the option's name, as on the command line without {@code --}
 * @param description the {@code @Description} text
 * @param defaultValue the {@code @Default.*} value as text, or null
 * @param required whether the getter has {@code @Validation.Required}
 * @param type the getter's return type
 */
public record OptionDoc(
    String name,
    String description,
    @Nullable String defaultValue,
    boolean required,
    Class<?> type) {

  /**
   * The options {@code options} declares, in declaration order (with a description), followed by
   * those of the project's own interfaces it extends (shared option groups), not Beam's.
   */
  public static List<OptionDoc> declaredBy(Class<? extends PipelineOptions> options) {
    List<OptionDoc> docs = new ArrayList<>();
    addDeclared(options, docs);
    return docs;
  }

  private static void addDeclared(Class<?> options, List<OptionDoc> docs) {
    for (Method getter : options.getDeclaredMethods()) {
      String name = propertyName(getter);
      if (name != null
          && getter.isAnnotationPresent(Description.class)
          && docs.stream().noneMatch(d -> d.name().equals(name))) {
        docs.add(of(getter, name));
      }
    }
    for (Class<?> parent : options.getInterfaces()) {
      if (parent.getPackageName().startsWith("io.thriftbq")) {
        addDeclared(parent, docs);
      }
    }
  }

  /**
   * Adds to {@code getters}, by option name, the getters annotated with {@link TemplateParameter}
   * that {@code options} and the project's own interfaces it extends declare.
   */
  static void annotatedGetters(Class<?> options, Map<String, Method> getters) {
    for (Method getter : options.getDeclaredMethods()) {
      String name = propertyName(getter);
      if (name != null && getter.isAnnotationPresent(TemplateParameter.class)) {
        getters.putIfAbsent(name, getter);
      }
    }
    for (Class<?> parent : options.getInterfaces()) {
      if (parent.getPackageName().startsWith("io.thriftbq")) {
        annotatedGetters(parent, getters);
      }
    }
  }

  /** The option {@code name} of {@code options}, declared there or inherited (Beam's own). */
  public static OptionDoc of(Class<? extends PipelineOptions> options, String name) {
    String suffix = Character.toUpperCase(name.charAt(0)) + name.substring(1);
    for (String prefix : List.of("get", "is")) {
      try {
        return of(options.getMethod(prefix + suffix), name);
      } catch (NoSuchMethodException e) {
        // try the next prefix
      }
    }
    throw new IllegalArgumentException(options.getName() + " has no option " + name);
  }

  private static OptionDoc of(Method getter, String name) {
    Description description = getter.getAnnotation(Description.class);
    return new OptionDoc(
        name,
        description == null ? "" : description.value(),
        defaultOf(getter),
        getter.isAnnotationPresent(Validation.Required.class),
        getter.getReturnType());
  }

  /** The first sentence of the description, for summaries. */
  public String summary() {
    int end = description.indexOf(". ");
    return end < 0 ? description : description.substring(0, end + 1);
  }

  /**
   * The option a getter reads ({@code getFoo} or {@code isFoo}: foo), or null for another method.
   */
  static @Nullable String propertyName(Method getter) {
    if (getter.getParameterCount() != 0) {
      return null;
    }
    String n = getter.getName();
    if (n.startsWith("get") && n.length() > 3) {
      return Introspector.decapitalize(n.substring(3));
    }
    if (n.startsWith("is") && n.length() > 2) {
      return Introspector.decapitalize(n.substring(2));
    }
    return null;
  }

  private static @Nullable String defaultOf(Method m) {
    if (m.isAnnotationPresent(Default.String.class)) {
      return m.getAnnotation(Default.String.class).value();
    }
    if (m.isAnnotationPresent(Default.Enum.class)) {
      return m.getAnnotation(Default.Enum.class).value();
    }
    if (m.isAnnotationPresent(Default.Integer.class)) {
      return String.valueOf(m.getAnnotation(Default.Integer.class).value());
    }
    if (m.isAnnotationPresent(Default.Long.class)) {
      return String.valueOf(m.getAnnotation(Default.Long.class).value());
    }
    if (m.isAnnotationPresent(Default.Boolean.class)) {
      return String.valueOf(m.getAnnotation(Default.Boolean.class).value());
    }
    if (m.isAnnotationPresent(Default.Double.class)) {
      return String.valueOf(m.getAnnotation(Default.Double.class).value());
    }
    return null;
  }
}
