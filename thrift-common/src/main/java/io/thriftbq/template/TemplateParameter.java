package io.thriftbq.template;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes an option's getter a flex-template parameter and says what the Dataflow console shows
 * beyond what the option itself declares: the label, the group, the place in the group, the input
 * pattern and the enum values' labels. The help text, default, requiredness and enum values come
 * from the getter's {@code @Description}, {@code @Default.*}, {@code @Validation.Required} and
 * return type; {@link FlexTemplateMetadata} renders both into {@code metadata.json}.
 *
 * <p>An option shared by several templates (the IDL and Kafka connection options of thrift-common)
 * leaves {@link #group} empty: each template places its interface's parameters itself ({@link
 * TemplateSpec#placing}), and {@link #order} is then the place within that block.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface TemplateParameter {
  /** The console label. */
  String label();

  /**
   * The console group, one of the template's {@link TemplateSpec#groups}; empty for an option of a
   * shared interface that each template places.
   */
  String group() default "";

  /**
   * The place in the group: parameters are listed in increasing order. Leave gaps (10, 20, ...) so
   * that a new parameter fits between two others without renumbering.
   */
  int order();

  /**
   * The console type; the default takes it from the getter's Java type (boolean: BOOLEAN, an enum:
   * ENUM, a number: NUMBER, anything else: TEXT). Name one only for a resource the console can pick
   * (a Pub/Sub topic or subscription, a BigQuery table).
   */
  ParamType type() default ParamType.FROM_JAVA_TYPE;

  /** A regular expression the whole value must match (anchored with ^ and $); empty for none. */
  String pattern() default "";

  /** The console label of each value of an enum option, every value once. */
  EnumLabel[] enumLabels() default {};

  /** The console label of one value of an enum option. */
  @Retention(RetentionPolicy.RUNTIME)
  @Target({})
  @interface EnumLabel {
    /** The enum constant's name. */
    String value();

    String label();
  }

  /** Dataflow's {@code paramType} values this project uses, and the default that derives one. */
  enum ParamType {
    /** Not a console type: take it from the getter's Java type (see {@link #type}). */
    FROM_JAVA_TYPE,
    TEXT,
    NUMBER,
    BOOLEAN,
    ENUM,
    PUBSUB_TOPIC,
    PUBSUB_SUBSCRIPTION,
    BIGQUERY_TABLE
  }
}
