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

  private static final String NAME = "[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?";

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
            .withRegex("^" + NAME + "$"),
        TemplateParameter.of(
                "thriftStructs", "Structs of the IDL", group, TemplateParameter.ParamType.TEXT)
            .withRegex("^" + NAME + "(:[0-9.]+)?( *, *" + NAME + "(:[0-9.]+)?)*$"),
        TemplateParameter.of(
                "thriftUnion", "Union of the IDL", group, TemplateParameter.ParamType.TEXT)
            .withRegex("^" + NAME + "$"),
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
