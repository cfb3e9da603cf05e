package io.thriftbq.ingest.schema;

import java.io.Serializable;

/**
 * Which Pub/Sub metadata columns are appended, after the event's own columns, to every row. The
 * leading underscore keeps them apart from IDL field names.
 */
public record MetadataColumns(boolean messageId, boolean publishTime, boolean attributes)
    implements Serializable {

  public static final String MESSAGE_ID = "_message_id";
  public static final String PUBLISH_TIME = "_publish_time";
  public static final String ATTRIBUTES = "_attributes";
  public static final String ATTRIBUTE_KEY = "key";
  public static final String ATTRIBUTE_VALUE = "value";

  public static final MetadataColumns NONE = new MetadataColumns(false, false, false);
  public static final MetadataColumns ALL = new MetadataColumns(true, true, true);

  public boolean any() {
    return messageId || publishTime || attributes;
  }

  public int count() {
    return (messageId ? 1 : 0) + (publishTime ? 1 : 0) + (attributes ? 1 : 0);
  }
}
