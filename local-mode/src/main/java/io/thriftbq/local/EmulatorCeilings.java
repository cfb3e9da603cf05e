package io.thriftbq.local;

import io.thriftbq.local.config.LocalRunConfig;
import io.thriftbq.local.config.SourceKind;
import io.thriftbq.local.report.MachineCeilings;
import io.thriftbq.local.run.BareCeilings;
import io.thriftbq.local.stack.EmulatorStack;
import java.util.ArrayList;
import java.util.List;

/**
 * The emulators' own ceilings on this machine ({@link BareCeilings}, the measurement {@code
 * --compare-steps} makes too), on emulators of its own. Prints a line per ceiling, then one {@code
 * ceiling<TAB>KEY<TAB>PER_SECOND} line each for scripts ({@code benchmarks/local-ab.sh}).
 *
 * <p>Usage: {@code java -cp local-mode-bundled.jar io.thriftbq.local.EmulatorCeilings [EVENTS]
 * [PULL_THREADS] [ROWS_PER_APPEND[,ROWS_PER_APPEND...]] [ROWS_OF]} (defaults 50000, 1, 500,
 * pubsub). ROWS_OF ({@code pubsub} or {@code kafka}, as {@code run-local.sh --source}) is the
 * source whose runs' rows are appended: compare a run with the ceiling of its own source's rows.
 */
public final class EmulatorCeilings {
  private EmulatorCeilings() {}

  public static void main(String[] args) throws Exception {
    int events = args.length > 0 ? Integer.parseInt(args[0]) : 50_000;
    int pullThreads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    List<Integer> rowsPerAppend = new ArrayList<>();
    for (String size : (args.length > 2 ? args[2] : "500").split(",")) {
      rowsPerAppend.add(Integer.parseInt(size.trim()));
    }
    SourceKind rowsOf = args.length > 3 ? SourceKind.parse(args[3]) : SourceKind.PUBSUB;
    try (EmulatorStack stack =
        EmulatorStack.start(LocalRunConfig.PROJECT, LocalRunConfig.DATASET, false)) {
      MachineCeilings ceilings =
          BareCeilings.measure(
              stack, true, rowsOf, events, pullThreads, rowsPerAppend, "ceiling", System.out);
      for (MachineCeilings.Ceiling ceiling : ceilings.ceilings()) {
        System.out.printf("ceiling\t%s\t%.0f%n", ceiling.key(), ceiling.perSecond());
      }
    }
    // The Storage Write client leaves a non-daemon thread behind: exit explicitly.
    System.exit(0);
  }
}
