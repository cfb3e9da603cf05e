package io.thriftbq.schema;

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
  String getThriftIdl();

  void setThriftIdl(String value);

  @Description(
      "Comma-separated directories (local or gs://) searched for the files the IDL includes,"
          + " after the including file's own directory.")
  String getThriftIdlIncludePath();

  void setThriftIdlIncludePath(String value);

  @Description(
      "The struct, union or exception of --thriftIdl that each message holds; write it as"
          + " FILE.Name (the file name without .thrift) when the name alone is ambiguous.")
  String getThriftStruct();

  void setThriftStruct(String value);
}
