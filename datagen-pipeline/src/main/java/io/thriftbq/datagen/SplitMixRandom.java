package io.thriftbq.datagen;

/**
 * A small, fast, reseedable pseudo-random generator (SplitMix64). The generator reseeds it for
 * every event from (seed, sequence number), which is what makes each event a pure function of those
 * two numbers however the sequence is split across workers. Not thread-safe; not for cryptography.
 */
final class SplitMixRandom {
  private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

  private long state;

  SplitMixRandom(long seed) {
    this.state = seed;
  }

  void reseed(long seed) {
    this.state = seed;
  }

  /** A well-mixed state for stream {@code a}, position {@code b}. */
  static long seedFor(long a, long b) {
    return mix64(mix64(a ^ 0x5DEECE66DL) + b * GOLDEN_GAMMA);
  }

  /** The SplitMix64 finalizer: a bijection on longs that spreads every input bit. */
  static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  long nextLong() {
    state += GOLDEN_GAMMA;
    return mix64(state);
  }

  /**
   * Uniform in [0, bound), bound > 0; multiply-shift, whose bias (< 2^-32) does not matter here.
   */
  int nextInt(int bound) {
    return (int) (((nextLong() >>> 32) * bound) >>> 32);
  }

  /** Uniform in [0, bound), bound > 0. */
  long nextLong(long bound) {
    return (nextLong() >>> 1) % bound;
  }

  /** Uniform in [0, 1). */
  double nextDouble() {
    return (nextLong() >>> 11) * 0x1.0p-53;
  }

  boolean nextBoolean() {
    return nextLong() < 0;
  }
}
