package io.thriftbq.ingest.schema;

import java.io.Serializable;

/**
 * Which extra columns are appended, after the event's own columns, to every row: the Pub/Sub
 * metadata, and the raw event when it held fields the IDL does not know ({@code
 * --keepUnknownFields}). The leading underscore keeps them apart from IDL field names.
 */
public record MetadataColumns(
    boolean messageId, boolean publishTime, boolean attributes, boolean unknownFields)
    implements Serializable {

  public static final String MESSAGE_ID = "_message_id";
  public static final String PUBLISH_TIME = "_publish_time";
  public static final String ATTRIBUTES = "_attributes";
  public static final String ATTRIBUTE_KEY = "key";
  public static final String ATTRIBUTE_VALUE = "value";

  /**
   * The event's own bytes, as received, when it held a field (at any depth) that the IDL does not
   * know; NULL otherwise. Decode it again once the IDL knows the field.
   */
  public static final String UNKNOWN_FIELDS = "_unknown_fields";

  public static final MetadataColumns NONE = new MetadataColumns(false, false, false);

  /** Every Pub/Sub metadata column (not the unknown-fields column). */
  public static final MetadataColumns ALL = new MetadataColumns(true, true, true);

  /** The Pub/Sub metadata columns only. */
  public MetadataColumns(boolean messageId, boolean publishTime, boolean attributes) {
    this(messageId, publishTime, attributes, false);
  }

  /** The same columns, with or without {@link #UNKNOWN_FIELDS}. */
  public MetadataColumns withUnknownFields(boolean keep) {
    return new MetadataColumns(messageId, publishTime, attributes, keep);
  }

  public boolean any() {
    return messageId || publishTime || attributes || unknownFields;
  }

  public int count() {
    return (messageId ? 1 : 0)
        + (publishTime ? 1 : 0)
        + (attributes ? 1 : 0)
        + (unknownFields ? 1 : 0);
  }
}
