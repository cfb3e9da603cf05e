package io.thriftbq.template;

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

  private PubsubNames() {}

  public static boolean isSubscription(String name) {
    return SUBSCRIPTION.matcher(name).matches();
  }

  public static boolean isTopic(String name) {
    return TOPIC.matcher(name).matches();
  }
}
