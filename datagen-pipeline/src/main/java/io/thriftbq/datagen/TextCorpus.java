package io.thriftbq.datagen;

import java.nio.charset.StandardCharsets;

/**
 * A fixed 1 MiB text of lower-case words and spaces from which string values are cut: a random
 * window of the text is a realistic-looking string (it compresses and sorts like text, not like
 * noise), and cutting it costs one random number and no allocation on the serialization path.
 *
 * <p>The text is built once per JVM from a fixed word list and a fixed seed, so every worker and
 * every run sees the same bytes; that is part of what makes the generator reproducible.
 */
final class TextCorpus {
  static final int SIZE = 1 << 20;

  private static final String[] WORDS = {
    "account", "active", "address", "alpha", "amber", "apple", "april", "arrow", "atlas", "audio",
    "autumn", "basket", "beacon", "berry", "beta", "blue", "bold", "bridge", "bright", "brook",
    "buffer", "button", "cabin", "cable", "camera", "candle", "canyon", "carbon", "cart", "castle",
    "cedar", "center", "chart", "check", "cherry", "circle", "city", "classic", "cloud", "clover",
    "coast", "cobalt", "coffee", "comet", "copper", "coral", "cotton", "credit", "crystal", "daily",
    "dawn", "delta", "desert", "design", "device", "digital", "double", "dragon", "dream", "eagle",
    "early", "east", "echo", "edge", "ember", "engine", "event", "express", "falcon", "field",
    "final", "flame", "flash", "forest", "fox", "frame", "fresh", "galaxy", "garden", "gate",
    "giant", "glass", "global", "gold", "golden", "granite", "green", "grid", "harbor", "hazel",
    "home", "honey", "horizon", "iron", "island", "ivory", "jade", "jasmine", "jet", "journey",
    "jungle", "key", "kind", "lake", "laser", "lemon", "level", "light", "lime", "linen", "lion",
    "local", "lotus", "lucky", "lunar", "magnet", "maple", "marble", "market", "meadow", "metro",
    "mint", "mobile", "modern", "moon", "morning", "mountain", "north", "nova", "oak", "ocean",
    "olive", "omega", "online", "orange", "orbit", "order", "pacific", "page", "paper", "pearl",
    "pepper", "pilot", "pine", "pixel", "planet", "plaza", "polar", "prime", "pulse", "purple",
    "quartz", "quick", "rapid", "raven", "red", "river", "rocket", "royal", "ruby", "sage",
    "salmon", "sand", "search", "season", "select", "shadow", "shop", "signal", "silver", "simple",
    "sky", "smart", "snow", "solar", "south", "spark", "spring", "square", "star", "steel", "stone",
    "storm", "summer", "sun", "swift", "table", "tango", "terra", "thunder", "tiger", "timber",
    "token", "topaz", "tower", "travel", "tulip", "ultra", "union", "urban", "valley", "velvet",
    "vertex", "violet", "vista", "water", "wave", "west", "white", "wild", "willow", "winter",
    "wolf", "yellow", "zen", "zephyr", "zone"
  };

  private static final byte[] TEXT = build();

  private TextCorpus() {}

  /** The shared text; callers must not modify it. */
  static byte[] text() {
    return TEXT;
  }

  private static byte[] build() {
    byte[][] words = new byte[WORDS.length][];
    for (int i = 0; i < WORDS.length; i++) {
      words[i] = WORDS[i].getBytes(StandardCharsets.US_ASCII);
    }
    byte[] text = new byte[SIZE];
    SplitMixRandom random = new SplitMixRandom(0x7E47C0_2B05L);
    int position = 0;
    while (position < SIZE) {
      byte[] word = words[random.nextInt(words.length)];
      int length = Math.min(word.length, SIZE - position);
      System.arraycopy(word, 0, text, position, length);
      position += length;
      if (position < SIZE) {
        text[position++] = ' ';
      }
    }
    return text;
  }
}
