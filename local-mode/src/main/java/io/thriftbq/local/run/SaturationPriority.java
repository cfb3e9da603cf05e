package io.thriftbq.local.run;

import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.stack.CpuPriority;
import io.thriftbq.local.stack.EmulatorStack;
import java.io.PrintStream;
import java.util.Collection;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * Where a saturation run ({@link io.thriftbq.local.config.SaturationRun}) lets the BigQuery
 * emulator go first on the CPU ({@link CpuPriority}), and what each run's header says about it.
 *
 * <p>A lowered JVM cannot raise itself back, so every later run in it is lowered too, and its
 * header says so. A comparison of steps lowers once, before its first step, when any of its steps
 * is a saturation run: every step it compares then runs at the same priorities.
 */
public final class SaturationPriority {
  /** Sets this JVM and the source's server {@code serverPid} to a niceness; empty when done. */
  interface Lowering {
    Optional<String> lower(long serverPid, int niceness);
  }

  private static final SaturationPriority THIS_JVM = new SaturationPriority(CpuPriority::lower);

  private final Lowering lowering;

  /** The niceness this JVM and its source's server were set to; 0 while they were not. */
  private int lowered;

  SaturationPriority(Lowering lowering) {
    this.lowering = lowering;
  }

  /** Lowers before {@code config}'s run when it is a saturation run, and says how the run runs. */
  static void beforeRun(EmulatorStack stack, LocalRunConfig config, PrintStream out) {
    THIS_JVM.beforeRun(
        () -> stack.sourcePid(config.source()), config, CpuPriority.niceness(System.getenv()), out);
  }

  /** Lowers before a comparison of {@code steps} when any of them is a saturation run. */
  public static void beforeComparison(
      EmulatorStack stack, Collection<LocalRunConfig> steps, PrintStream out) {
    THIS_JVM.beforeComparison(
        steps,
        config -> stack.sourcePid(config.source()),
        CpuPriority.niceness(System.getenv()),
        out);
  }

  synchronized void beforeRun(
      LongSupplier serverPid, LocalRunConfig config, int niceness, PrintStream out) {
    if (config.handOffWriters() > 0) {
      lower(serverPid, config, niceness, out);
    } else if (lowered > 0) {
      out.printf(
          "The pipeline and the %s run at nice %d, lowered earlier in this JVM for a saturation run"
              + " (a priority cannot be raised back)%n",
          config.source().serverName(), lowered);
    }
  }

  synchronized void beforeComparison(
      Collection<LocalRunConfig> steps,
      ToLongFunction<LocalRunConfig> serverPid,
      int niceness,
      PrintStream out) {
    steps.stream()
        .filter(step -> step.handOffWriters() > 0)
        .findFirst()
        .ifPresent(
            saturated -> lower(() -> serverPid.applyAsLong(saturated), saturated, niceness, out));
  }

  private void lower(LongSupplier serverPid, LocalRunConfig config, int niceness, PrintStream out) {
    if (niceness == 0) {
      return;
    }
    String why = lowering.lower(serverPid.getAsLong(), niceness).orElse(null);
    if (why == null) {
      lowered = niceness;
    }
    out.printf(
        why == null
            ? "The pipeline and the %s run at nice %d, so the BigQuery emulator goes first (%s=0"
                + " for as they were)%n"
            : "The pipeline and the %s could not be set to nice %d (%s): %s%n",
        config.source().serverName(),
        niceness,
        CpuPriority.VARIABLE,
        why);
  }
}
