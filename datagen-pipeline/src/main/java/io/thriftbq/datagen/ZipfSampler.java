package io.thriftbq.datagen;

/**
 * Draws ranks 1..n with probability proportional to {@code 1 / rank^exponent} (a Zipf-like
 * distribution): exponent 0 is uniform, 1 is the classic Zipf law where the top value takes about
 * {@code 1 / ln(n)} of the draws, and larger exponents concentrate further.
 *
 * <p>Uses rejection-inversion (W. Hörmann and G. Derflinger, "Rejection-inversion to generate
 * variates from monotone discrete distributions", ACM TOMACS 6(3), 1996): constant memory and
 * expected constant time for any n, so a skewed field can have a billion possible values without a
 * cumulative table. The idea: the area under the continuous hat {@code h(x) = x^-s} between {@code
 * k - 1/2} and {@code k + 1/2} exceeds {@code h(k)}, so sample the area uniformly, invert its
 * integral {@code H}, round to the nearest rank k and accept when the point falls in the part of
 * k's slice whose width is exactly {@code h(k)}.
 */
final class ZipfSampler {
  private final long n;
  private final double exponent;
  private final double hIntegralX1;
  private final double hIntegralN;
  private final double squeeze;

  ZipfSampler(long n, double exponent) {
    if (n < 1) {
      throw new IllegalArgumentException("need at least one value: " + n);
    }
    if (!(exponent >= 0) || Double.isInfinite(exponent)) {
      throw new IllegalArgumentException("exponent must be finite and >= 0: " + exponent);
    }
    this.n = n;
    this.exponent = exponent;
    this.hIntegralX1 = hIntegral(1.5) - 1.0;
    this.hIntegralN = hIntegral(n + 0.5);
    this.squeeze = 2.0 - hIntegralInverse(hIntegral(2.5) - h(2.0));
  }

  /** A rank in [1, n]. */
  long sample(SplitMixRandom random) {
    if (exponent == 0 || n == 1) {
      return 1 + random.nextLong(n);
    }
    while (true) {
      double u = hIntegralN + random.nextDouble() * (hIntegralX1 - hIntegralN);
      double x = hIntegralInverse(u);
      long k = (long) (x + 0.5);
      if (k < 1) {
        k = 1;
      } else if (k > n) {
        k = n;
      }
      // The first test accepts most draws without evaluating H again.
      if (k - x <= squeeze || u >= hIntegral(k + 0.5) - h(k)) {
        return k;
      }
    }
  }

  private double h(double x) {
    return Math.exp(-exponent * Math.log(x));
  }

  /** Integral of h from 1 to x: (x^(1-s) - 1) / (1-s), or ln x when s = 1, without cancellation. */
  private double hIntegral(double x) {
    double logX = Math.log(x);
    return expm1OverX((1.0 - exponent) * logX) * logX;
  }

  private double hIntegralInverse(double y) {
    double t = y * (1.0 - exponent);
    if (t < -1.0) {
      // Only reachable through rounding at the far end of the range.
      t = -1.0;
    }
    return Math.exp(log1pOverX(t) * y);
  }

  /** log(1 + x) / x, continuous at 0. */
  private static double log1pOverX(double x) {
    if (Math.abs(x) > 1e-8) {
      return Math.log1p(x) / x;
    }
    return 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
  }

  /** (e^x - 1) / x, continuous at 0. */
  private static double expm1OverX(double x) {
    if (Math.abs(x) > 1e-8) {
      return Math.expm1(x) / x;
    }
    return 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
  }
}
