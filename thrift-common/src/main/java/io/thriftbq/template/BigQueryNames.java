package io.thriftbq.template;

/**
 * The shape of BigQuery table specs, in one place for the flex templates' parameter regexes and the
 * deployment scripts' checks (scripts/lib/patterns.generated.sh). The pipeline itself parses each
 * table with Beam's {@code BigQueryHelpers.parseTableSpec}, which decides the characters; this
 * shape accepts everything that parser accepts ({@code PROJECT:DATASET.TABLE}, {@code
 * PROJECT.DATASET.TABLE}, {@code DATASET.TABLE}, domain-scoped projects, partition decorators,
 * spaces and non-ASCII letters in table names) so that no check before the launch refuses a table
 * the pipeline would take, and refuses what is plainly not one table: no dataset, an empty part, a
 * comma or an equals sign (the separators of {@code --tableForStruct}).
 */
public final class BigQueryNames {
  private BigQueryNames() {}

  /** One table spec, unanchored: text without {@code ,} or {@code =} ending in {@code .TABLE}. */
  public static final String TABLE_SPEC = "[^,=]+\\.[^,=.]+";

  /**
   * One table spec, anchored ({@code --outputTable} may hold {@code {struct}}, which it allows).
   */
  public static final String TABLE_SPEC_REGEX = "^" + TABLE_SPEC + "$";

  /** One entry of {@code --tableForStruct}, {@code Struct=TABLE}, anchored. */
  public static final String TABLE_FOR_STRUCT_ENTRY_REGEX =
      "^" + IdlParameters.STRUCT_NAME + "=" + TABLE_SPEC + "$";

  /** {@code --tableForStruct}: comma-separated {@code Struct=TABLE} entries. */
  public static final String TABLE_FOR_STRUCT_REGEX =
      "^"
          + IdlParameters.STRUCT_NAME
          + "="
          + TABLE_SPEC
          + "( *, *"
          + IdlParameters.STRUCT_NAME
          + "="
          + TABLE_SPEC
          + ")*$";
}
