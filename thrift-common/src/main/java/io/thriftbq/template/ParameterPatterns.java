package io.thriftbq.template;

/**
 * The input patterns that several flex-template parameters share, or that name a Thrift type, in
 * one place (a parameter's own pattern stays on its getter). Pub/Sub names are in {@link
 * PubsubNames} and Kafka's in {@link KafkaParameters}, next to the launch checks that use them.
 */
public final class ParameterPatterns {
  private ParameterPatterns() {}

  /** A struct, union or exception of an IDL: Name, or FILE.Name when the name is ambiguous. */
  private static final String IDL_NAME = "[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?";

  /** A fully qualified Java class name (a Thrift-generated class, a user function). */
  public static final String JAVA_CLASS_NAME =
      "^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_$]*)+$";

  public static final String POSITIVE_INTEGER = "^[1-9][0-9]*$";

  public static final String NON_NEGATIVE_INTEGER = "^[0-9]+$";

  /** A share from 0 to 1. */
  public static final String FRACTION = "^(0(\\.[0-9]+)?|1(\\.0+)?)$";

  /** A BigQuery table as PROJECT:DATASET.TABLE or DATASET.TABLE. */
  public static final String BIGQUERY_TABLE_SPEC = "^([^:]+:)?[^.]+\\.[^.]+$";

  /** A Thrift IDL file: a local path or gs://BUCKET/PATH, ending in .thrift. */
  public static final String IDL_FILE = "^(gs://[^/]+/.+|[^:]+)\\.thrift$";

  /** One struct (or union) of an IDL. */
  public static final String IDL_TYPE = "^" + IDL_NAME + "$";

  /** Structs of an IDL, comma-separated, each with an optional :weight (the generator's). */
  public static final String IDL_TYPES =
      "^" + IDL_NAME + "(:[0-9.]+)?( *, *" + IDL_NAME + "(:[0-9.]+)?)*$";
}
