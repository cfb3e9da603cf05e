package io.thriftbq.schema;

import java.util.ArrayList;
import java.util.List;
import org.apache.beam.sdk.io.FileSystems;
import org.checkerframework.checker.nullness.qual.Nullable;

/** Picks the struct's source from the options: an IDL read at launch, or a generated class. */
public final class ThriftSources {
  /** The struct when neither a class nor an IDL is given: the sample event. */
  public static final String SAMPLE_CLASS = "io.thriftbq.sample.Event";

  private ThriftSources() {}

  /**
   * The struct the options name: {@code --thriftIdl} with {@code --thriftStruct}, or the class
   * named by {@code classOption}, or {@link #SAMPLE_CLASS} when neither is given. Reads and checks
   * the IDL now (at launch).
   *
   * @param classOption the pipeline's option for a generated class, as the user writes it
   * @throws IllegalArgumentException when both or half are given, or the IDL cannot be used; the
   *     message says what to change
   */
  public static ThriftSource choose(
      ThriftSchemaOptions options, String classOption, @Nullable String className) {
    boolean idl = isSet(options.getThriftIdl());
    boolean generated = isSet(className);
    if (idl && generated) {
      throw new IllegalArgumentException(
          "--thriftIdl and "
              + classOption
              + " both name the event struct: give exactly one (--thriftIdl with --thriftStruct"
              + " reads your IDL at launch; "
              + classOption
              + " names a Thrift-generated class on the classpath)");
    }
    if (!idl) {
      if (isSet(options.getThriftStruct())) {
        throw new IllegalArgumentException(
            "--thriftStruct names a struct of an IDL, but --thriftIdl is not set: add"
                + " --thriftIdl=PATH to your .thrift file");
      }
      return ThriftSource.generatedClass(generated ? className : SAMPLE_CLASS);
    }
    if (!isSet(options.getThriftStruct())) {
      throw new IllegalArgumentException(
          "--thriftIdl="
              + options.getThriftIdl()
              + " needs --thriftStruct: name the struct each message holds");
    }
    // Registers gs:// and the other file systems the options enable.
    FileSystems.setDefaultPipelineOptions(options);
    return ThriftSource.idl(
        options.getThriftIdl(),
        splitList(options.getThriftIdlIncludePath()),
        options.getThriftStruct());
  }

  /** Splits a comma-separated list, ignoring blanks. */
  public static List<String> splitList(@Nullable String commaSeparated) {
    List<String> parts = new ArrayList<>();
    if (commaSeparated != null) {
      for (String part : commaSeparated.split(",")) {
        if (!part.isBlank()) {
          parts.add(part.trim());
        }
      }
    }
    return parts;
  }

  private static boolean isSet(@Nullable String value) {
    return value != null && !value.isBlank();
  }
}
