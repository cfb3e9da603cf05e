package io.thriftbq.template;

/**
 * The input patterns that several flex-template parameters share, that name a Thrift type or a
 * BigQuery table, or that the deployment scripts check too, in one place (a parameter's own pattern
 * stays on its getter). Pub/Sub names are in {@link PubsubNames} and Kafka's in {@link
 * KafkaParameters}, next to the launch checks that use them. The scripts' copies of the IDL and
 * table rules are generated from these constants ({@code scripts/lib/patterns.generated.sh}).
 *
 * <p>The IDL and table rules refuse nothing the pipeline accepts: the IDL decides which struct
 * names exist, and Beam's {@code BigQueryHelpers.parseTableSpec} decides the characters of a table.
 */
public final class ParameterPatterns {
  private ParameterPatterns() {}

  /**
   * A struct, union or exception of an IDL, unanchored: {@code Name}, or {@code FILE.Name} when the
   * name is ambiguous, FILE being the IDL file's name without {@code .thrift} (a file name may hold
   * {@code -} and {@code .}).
   */
  private static final String IDL_NAME = "[A-Za-z_]([A-Za-z0-9_.-]*[A-Za-z0-9_])?";

  /** A struct with the generator's optional share ({@code Order:5}). */
  private static final String WEIGHTED_IDL_NAME = IDL_NAME + "(:[0-9.]+)?";

  /**
   * One BigQuery table, unanchored: text without {@code ,} or {@code =} (the separators of {@code
   * --tableForStruct}) ending in {@code .TABLE}. It takes everything Beam's parser takes: {@code
   * PROJECT:DATASET.TABLE}, {@code PROJECT.DATASET.TABLE}, {@code DATASET.TABLE}, domain-scoped
   * projects, partition decorators, spaces and non-ASCII letters in table names.
   */
  private static final String TABLE = "[^,=]+\\.[^,=.]+";

  /** One {@code Struct=TABLE} entry of {@code --tableForStruct}, unanchored. */
  private static final String STRUCT_TABLE = IDL_NAME + "=" + TABLE;

  /** A fully qualified Java class name (a Thrift-generated class, a user function). */
  public static final String JAVA_CLASS_NAME =
      "^[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_$]*)+$";

  public static final String POSITIVE_INTEGER = "^[1-9][0-9]*$";

  public static final String NON_NEGATIVE_INTEGER = "^[0-9]+$";

  /** A share from 0 to 1. */
  public static final String FRACTION = "^(0(\\.[0-9]+)?|1(\\.0+)?)$";

  /** One BigQuery table ({@code --outputTable} may hold {@code {struct}}, which this allows). */
  public static final String BIGQUERY_TABLE_SPEC = "^" + TABLE + "$";

  /** One {@code Struct=TABLE} entry of {@code --tableForStruct}. */
  public static final String TABLE_FOR_STRUCT_ENTRY = "^" + STRUCT_TABLE + "$";

  /** {@code --tableForStruct}: comma-separated {@code Struct=TABLE} entries. */
  public static final String TABLE_FOR_STRUCT =
      "^" + STRUCT_TABLE + "( *, *" + STRUCT_TABLE + ")*$";

  /** A Thrift IDL file: a local path or gs://BUCKET/PATH, ending in .thrift. */
  public static final String IDL_FILE = "^(gs://[^/]+/.+|[^:]+)\\.thrift$";

  /** One struct (or union) of an IDL. */
  public static final String IDL_TYPE = "^" + IDL_NAME + "$";

  /**
   * Structs of an IDL, comma-separated (spaces around the commas, as the pipeline trims each), each
   * with an optional :weight (the generator's).
   */
  public static final String IDL_TYPES =
      "^" + WEIGHTED_IDL_NAME + "( *, *" + WEIGHTED_IDL_NAME + ")*$";
}
