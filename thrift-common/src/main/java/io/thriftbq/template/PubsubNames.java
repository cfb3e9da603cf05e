package io.thriftbq.template;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The shape of Pub/Sub resource names, in one place for the launch checks and the flex templates'
 * parameter regexes: ids are 3-255 characters, start with a letter, and use letters, digits and
 * {@code - . _ ~ + %}.
 */
public final class PubsubNames {
  private static final String ID = "[A-Za-z][-A-Za-z0-9._~+%]{2,254}";

  /** projects/PROJECT/subscriptions/NAME, anchored (a flex template parameter's regex). */
  public static final String SUBSCRIPTION_REGEX = "^projects/[^/]+/subscriptions/" + ID + "$";

  /** projects/PROJECT/topics/NAME, anchored (a flex template parameter's regex). */
  public static final String TOPIC_REGEX = "^projects/[^/]+/topics/" + ID + "$";

  private static final Pattern SUBSCRIPTION = Pattern.compile(SUBSCRIPTION_REGEX);
  private static final Pattern TOPIC = Pattern.compile(TOPIC_REGEX);

  /** What the form of both names says about NAME, for messages that say what to change. */
  public static final String ID_RULE = "NAME: 3-255 characters, starting with a letter";

  /** Pub/Sub refuses attribute keys that start with this prefix (it reserves them). */
  public static final String RESERVED_ATTRIBUTE_PREFIX = "goog";

  /** The longest attribute key Pub/Sub accepts, in UTF-8 bytes. */
  public static final int MAX_ATTRIBUTE_KEY_BYTES = 256;

  private PubsubNames() {}

  public static boolean isSubscription(String name) {
    return SUBSCRIPTION.matcher(name).matches();
  }

  public static boolean isTopic(String name) {
    return TOPIC.matcher(name).matches();
  }

  /**
   * Whether Pub/Sub accepts {@code key} as a message attribute's key: any characters, at most
   * {@value #MAX_ATTRIBUTE_KEY_BYTES} bytes of UTF-8, not starting with {@value
   * #RESERVED_ATTRIBUTE_PREFIX}.
   */
  public static boolean isAttributeKey(String key) {
    return !key.startsWith(RESERVED_ATTRIBUTE_PREFIX)
        && key.getBytes(StandardCharsets.UTF_8).length <= MAX_ATTRIBUTE_KEY_BYTES;
  }
}
