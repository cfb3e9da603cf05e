package io.thriftbq.schema;

import io.thriftbq.template.ParameterPatterns;
import io.thriftbq.template.TemplateParameter;
import org.apache.beam.sdk.options.Default;
import org.apache.beam.sdk.options.Description;
import org.apache.beam.sdk.options.PipelineOptions;

/**
 * The options that name an IDL read at launch, shared by every pipeline and tool that needs the
 * event struct (so they are described once). Each pipeline adds its own option for a generated
 * class; {@link ThriftSources#choose} picks between the two.
 */
public interface ThriftSchemaOptions extends PipelineOptions {
  @Description(
      "Thrift IDL file of the events, read at launch with no code generator and no rebuild: a"
          + " local path or gs://BUCKET/PATH. Files it includes are resolved relative to the"
          + " including file, then in --thriftIdlIncludePath. Use with --thriftStruct, instead of"
          + " the generated-class option.")
  @TemplateParameter(label = "Thrift IDL file", order = 10, pattern = ParameterPatterns.IDL_FILE)
  String getThriftIdl();

  void setThriftIdl(String value);

  @Description(
      "Comma-separated directories (local or gs://) searched for the files the IDL includes,"
          + " after the including file's own directory.")
  @TemplateParameter(label = "IDL include directories", order = 20)
  String getThriftIdlIncludePath();

  void setThriftIdlIncludePath(String value);

  @Description(
      "The struct, union or exception of --thriftIdl that each message holds; write it as"
          + " FILE.Name (the file name without .thrift) when the name alone is ambiguous.")
  @TemplateParameter(label = "Struct of the IDL", order = 30, pattern = ParameterPatterns.IDL_TYPE)
  String getThriftStruct();

  void setThriftStruct(String value);

  @Description(
      "Several structs of --thriftIdl, comma-separated, each to its own table: for example"
          + " Order,Refund,Click (FILE.Name when a name alone is ambiguous). Each message names its"
          + " struct in the --structAttribute attribute; with --thriftUnion, narrows the union's"
          + " members instead. The data generator also takes a weight per struct"
          + " (Order:5,Refund:1,Click:94). Use instead of --thriftStruct.")
  @TemplateParameter(
      label = "Structs of the IDL",
      order = 40,
      pattern = ParameterPatterns.IDL_TYPES)
  String getThriftStructs();

  void setThriftStructs(String value);

  @Description(
      "A union of --thriftIdl that wraps every event type (union AnyEvent { 1: Order order; 2:"
          + " Refund refund; ... }): each message holds the union, and each member that is a struct"
          + " goes to its own table. Use instead of --thriftStruct; --thriftStructs may narrow the"
          + " members.")
  @TemplateParameter(label = "Union of the IDL", order = 50, pattern = ParameterPatterns.IDL_TYPE)
  String getThriftUnion();

  void setThriftUnion(String value);

  @Description(
      "Message attribute whose value names the message's struct (its name, or FILE.Name), when"
          + " --thriftStructs names several structs without --thriftUnion.")
  @Default.String(EventTypes.DEFAULT_STRUCT_ATTRIBUTE)
  @TemplateParameter(label = "Attribute naming the struct", order = 60)
  String getStructAttribute();

  void setStructAttribute(String value);
}
