package io.thriftbq.local.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.thriftbq.local.result.ChangeStateCheck;
import org.checkerframework.checker.nullness.qual.Nullable;

/** The report's final-state check of a change stream's run ({@code --changes}). */
final class FinalStateReport {
  private FinalStateReport() {}

  /** The problem that fails the run when the table is not the expected final state. */
  static String problem(ChangeStateCheck state) {
    return "the table is not the expected final state: "
        + state.missing()
        + " live key(s) missing, "
        + state.wrong()
        + " wrong, "
        + state.stale()
        + " stale, "
        + state.deletedBack()
        + " deleted key(s) back, "
        + state.extraRows()
        + " extra row(s); e.g. "
        + state.examples();
  }

  /** The console line; empty without a change stream ({@code state} null). */
  static String line(@Nullable ChangeStateCheck state) {
    if (state == null) {
      return "";
    }
    return String.format(
        "Final state       %s: %d keys (%d live, %d deleted); %d present, %d missing,"
            + " %d wrong, %d stale, %d deleted back, %d extra rows%n",
        state.matches() ? "as expected" : "NOT as expected",
        state.keysExpected(),
        state.liveExpected(),
        state.deletedExpected(),
        state.present(),
        state.missing(),
        state.wrong(),
        state.stale(),
        state.deletedBack(),
        state.extraRows());
  }

  /** The JSON report's {@code final_state}. */
  static void putJson(ObjectNode root, ChangeStateCheck state) {
    ObjectNode json = root.putObject("final_state");
    json.put("as_expected", state.matches());
    json.put("keys_expected", state.keysExpected());
    json.put("live_expected", state.liveExpected());
    json.put("deleted_expected", state.deletedExpected());
    json.put("present", state.present());
    json.put("missing", state.missing());
    json.put("wrong", state.wrong());
    json.put("stale", state.stale());
    json.put("deleted_back", state.deletedBack());
    json.put("extra_rows", state.extraRows());
    ArrayNode examples = json.putArray("examples");
    state.examples().forEach(examples::add);
  }
}
