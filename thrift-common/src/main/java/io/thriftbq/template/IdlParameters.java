package io.thriftbq.template;

import io.thriftbq.schema.ThriftSchemaOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The flex-template parameters of {@link ThriftSchemaOptions}, the same in every template: a user
 * deploys our image unchanged and points it at an IDL in a bucket.
 */
public final class IdlParameters {
  private IdlParameters() {}

  /**
   * A struct of the IDL, unanchored: {@code Name}, or {@code FILE.Name} when a name is ambiguous,
   * FILE being the IDL file's name without {@code .thrift} (a file name may hold {@code -} and
   * {@code .}). The IDL decides which names exist; this is the shape a launch can check first.
   */
  public static final String STRUCT_NAME = "[A-Za-z_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?";

  /** One struct (or union) of the IDL, anchored. */
  public static final String STRUCT_REGEX = "^" + STRUCT_NAME + "$";

  /** A struct with the generator's optional share ({@code Order:5}). */
  private static final String WEIGHTED_STRUCT = STRUCT_NAME + "(:[0-9.]+)?";

  /** {@code --thriftStructs}: comma-separated structs, each with an optional share. */
  public static final String STRUCTS_REGEX =
      "^" + WEIGHTED_STRUCT + "( *, *" + WEIGHTED_STRUCT + ")*$";

  /** The IDL parameters, in {@code group}. */
  public static List<TemplateParameter> in(String group) {
    return List.of(
        TemplateParameter.of(
                "thriftIdl", "Thrift IDL file", group, TemplateParameter.ParamType.TEXT)
            .withRegex("^(gs://[^/]+/.+|[^:]+)\\.thrift$"),
        TemplateParameter.of(
            "thriftIdlIncludePath",
            "IDL include directories",
            group,
            TemplateParameter.ParamType.TEXT),
        TemplateParameter.of(
                "thriftStruct", "Struct of the IDL", group, TemplateParameter.ParamType.TEXT)
            .withRegex(STRUCT_REGEX),
        TemplateParameter.of(
                "thriftStructs", "Structs of the IDL", group, TemplateParameter.ParamType.TEXT)
            .withRegex(STRUCTS_REGEX),
        TemplateParameter.of(
                "thriftUnion", "Union of the IDL", group, TemplateParameter.ParamType.TEXT)
            .withRegex(STRUCT_REGEX),
        TemplateParameter.of(
            "structAttribute",
            "Attribute naming the struct",
            group,
            TemplateParameter.ParamType.TEXT));
  }

  /** {@code parameters} with the IDL parameters (in {@code group}) right after {@code name}. */
  public static List<TemplateParameter> insertAfter(
      String name, String group, List<TemplateParameter> parameters) {
    List<TemplateParameter> all = new ArrayList<>();
    for (TemplateParameter parameter : parameters) {
      all.add(parameter);
      if (parameter.name().equals(name)) {
        all.addAll(in(group));
      }
    }
    if (all.size() == parameters.size()) {
      throw new IllegalArgumentException("no parameter named " + name);
    }
    return List.copyOf(all);
  }
}
