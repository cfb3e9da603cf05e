package io.thriftbq.local.config;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.thriftbq.template.GeneratedText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.Test;

/**
 * The 1M events/s sizing model of docs/TUNING.md ("Sizing 1M events/s: a model"), computed from its
 * two inputs and nothing else: {@code benchmarks/sizing/measured.tsv} (the pipeline's CPU per event
 * by component, measured in local mode and written by {@code benchmarks/sizing/collect.py}) and
 * {@code benchmarks/sizing/model.tsv} (the assumptions). The tables in docs/TUNING.md and
 * benchmarks/RESULTS.md section 10 are generated from them ({@code scripts/generate-docs.sh}).
 *
 * <p>Per run: the second half of the window's pipeline µs per event, less what is local only
 * (profiler, latency probe), what Dataflow does in the service (the Pub/Sub read and its
 * de-duplication; here also the Kafka client, standing for the read) and the JIT beyond a steady
 * share; plus what a Dataflow worker does that local Flink does not: receive the Pub/Sub read's
 * messages from Streaming Engine, send and receive every byte of the write's shuffles over RPC (the
 * local exchanges encode and decode them already), and TLS on those bytes and on the rows written.
 * 1 µs per event is one core at 1M events/s.
 */
public class SizingModelTest {
  private static final Path REPO = Path.of(System.getProperty("thriftbq.repoRoot", ".."));
  private static final Path DIR = REPO.resolve("benchmarks/sizing");
  private static final String JIT = "JIT compilers";
  private static final String GRPC_PREFIX = "gRPC transport";

  /** measured.tsv: key -> (run column -> value), in file order. */
  record Measured(List<String> runs, Map<String, Map<String, String>> rows) {
    String text(String key, String run) {
      Map<String, String> row = rows.get(key);
      if (row == null || !row.containsKey(run)) {
        throw new AssertionError("measured.tsv has no " + key + " for run " + run);
      }
      return row.get(run);
    }

    double number(String key, String run) {
      return Double.parseDouble(text(key, run));
    }

    /** Component names (without the "half:"/"whole:" prefix), in file order. */
    List<String> components() {
      List<String> names = new ArrayList<>();
      for (String key : rows.keySet()) {
        if (key.startsWith("half:") && !key.equals("half:total")) {
          names.add(key.substring(5));
        }
      }
      return names;
    }
  }

  record Param(String value, String why) {}

  /**
   * What the model does with a component; {@code bySource}: another kind for runs from a source.
   */
  record Treatment(String kind, String why, Map<String, String> bySource) {
    String kindFor(String source) {
      return bySource.getOrDefault(source, kind);
    }
  }

  record Model(
      Map<String, Param> params,
      Map<String, Treatment> treatments,
      Map<String, String[]> study,
      Map<String, String> sensitivities) {
    /** This model with some params replaced ("name=value,name=value"). */
    Model with(String overrides) {
      Map<String, Param> changed = new LinkedHashMap<>(params);
      for (String override : overrides.split(",")) {
        String[] nv = override.trim().split("=", 2);
        if (!changed.containsKey(nv[0])) {
          throw new AssertionError("model.tsv: a sensitivity changes an unknown param " + nv[0]);
        }
        changed.put(nv[0], new Param(nv[1], changed.get(nv[0]).why()));
      }
      return new Model(changed, treatments, study, sensitivities);
    }

    double number(String name) {
      Param p = params.get(name);
      if (p == null) {
        throw new AssertionError("model.tsv has no param " + name);
      }
      return Double.parseDouble(p.value());
    }
  }

  /** One run's sizing, every figure in µs of worker CPU per event unless named otherwise. */
  record Sizing(
      String run,
      int step,
      String source,
      double measured,
      double local,
      double nativeRead,
      double jitDropped,
      double kept,
      double shuffleRatio,
      double shuffle,
      double tls,
      double worker,
      double cores,
      double vcpus,
      int workers,
      double mbPerSecPerVcpu) {}

  static Measured measured() throws IOException {
    List<String> runs = null;
    Map<String, Map<String, String>> rows = new LinkedHashMap<>();
    for (String line : Files.readAllLines(DIR.resolve("measured.tsv"), StandardCharsets.UTF_8)) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      String[] f = line.split("\t", -1);
      if (runs == null) {
        runs = List.of(f).subList(1, f.length);
        continue;
      }
      Map<String, String> row = new LinkedHashMap<>();
      for (int i = 1; i < f.length; i++) {
        row.put(runs.get(i - 1), f[i]);
      }
      rows.put(f[0], row);
    }
    return new Measured(runs, rows);
  }

  static Model model() throws IOException {
    Map<String, Param> params = new LinkedHashMap<>();
    Map<String, Treatment> treatments = new LinkedHashMap<>();
    Map<String, String[]> study = new LinkedHashMap<>();
    Map<String, String> sensitivities = new LinkedHashMap<>();
    for (String line : Files.readAllLines(DIR.resolve("model.tsv"), StandardCharsets.UTF_8)) {
      if (line.startsWith("#") || line.isBlank()) {
        continue;
      }
      String[] f = line.split("\t", -1);
      switch (f[0]) {
        case "param" -> params.put(f[1], new Param(f[2], f[3]));
        case "treat" -> {
          Map<String, String> bySource = new LinkedHashMap<>();
          if (f.length > 4 && !f[4].isBlank()) {
            for (String pair : f[4].split(",")) {
              String[] sk = pair.trim().split("=", 2);
              bySource.put(sk[0], sk[1]);
            }
          }
          treatments.put(f[1], new Treatment(f[2], f[3], bySource));
        }
        case "study" -> study.put(f[1], new String[] {f[2], f[3]});
        case "sensitivity" -> sensitivities.put(f[1], f[2]);
        default -> throw new AssertionError("model.tsv: unknown line kind " + f[0]);
      }
    }
    return new Model(params, treatments, study, sensitivities);
  }

  /** µs of worker CPU per byte for one RPC leg: the gRPC transport per appended byte, + TLS. */
  static double rpcMicrosPerByte(Measured m, Model model) {
    double micros = 0;
    double bytes = 0;
    for (String run : model.params().get("rpc_price_runs").value().split(",")) {
      micros += m.number("whole:" + grpcComponent(m), run.trim());
      bytes += m.number("run:encoded_bytes_per_element", run.trim());
    }
    return micros / bytes + model.number("tls_ns_per_byte") / 1000;
  }

  private static String grpcComponent(Measured m) {
    return m.components().stream()
        .filter(c -> c.startsWith(GRPC_PREFIX))
        .findFirst()
        .orElseThrow(() -> new AssertionError("measured.tsv has no gRPC transport component"));
  }

  static Sizing size(Measured m, Model model, String run) {
    double local = 0;
    double nativeRead = 0;
    double jit = 0;
    double kept = 0;
    for (String component : m.components()) {
      double micros = m.number("half:" + component, run);
      switch (model.treatments().get(component).kindFor(m.text("run:source", run))) {
        case "keep" -> kept += micros;
        case "local" -> local += micros;
        case "native" -> nativeRead += micros;
        case "jit" -> jit += micros;
        default -> throw new AssertionError("model.tsv: unknown treatment for " + component);
      }
    }
    double measured = m.number("half:total", run);
    double jitKept = model.number("jit_steady_share") * kept;
    String source = m.text("run:source", run);
    // The write's shuffles: the local exchanges less the Pub/Sub source's own (to its
    // de-duplication; Dataflow's read delivers instead). Each shuffled byte is sent by one worker
    // and received by another; the read's delivery is received only.
    double writeShuffle =
        m.number("run:exchanged_bytes_per_input_byte", run)
            - m.number("run:source_exchange_bytes_per_input_byte", run);
    double read = model.number("read_delivery");
    double shuffleRatio = read + writeShuffle;
    double eventBytes = model.number("event_bytes");
    double shuffle =
        (read + writeShuffle * model.number("write_shuffle_legs"))
            * eventBytes
            * rpcMicrosPerByte(m, model);
    double tls =
        m.number("run:encoded_bytes_per_element", run) * model.number("tls_ns_per_byte") / 1000;
    double worker = kept + jitKept + shuffle + tls;
    double cores = worker * model.number("events_per_sec") / 1e6;
    double vcpus = cores / model.number("utilization") / model.number("vcpu_speed");
    int workers = (int) Math.ceil(vcpus / model.number("vcpus_per_worker"));
    double mbPerSecPerVcpu = model.number("events_per_sec") * eventBytes / 1e6 / vcpus;
    return new Sizing(
        run,
        (int) m.number("run:step", run),
        source,
        measured,
        local,
        nativeRead,
        jit - jitKept,
        kept + jitKept,
        shuffleRatio,
        shuffle,
        tls,
        worker,
        cores,
        vcpus,
        workers,
        mbPerSecPerVcpu);
  }

  static List<Sizing> sizings(Measured m, Model model) {
    List<Sizing> result = new ArrayList<>();
    for (String run : m.runs()) {
      result.add(size(m, model, run));
    }
    return result;
  }

  private static String f0(double v) {
    return String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%,.1f", v);
  }

  static String modelTable(Measured m, Model model) {
    StringBuilder t =
        new StringBuilder(
            "| step | read locally from | pipeline µs/event measured | − local only | − read"
                + " (native on Dataflow) | − JIT warm-up | = kept | + shuffle via Streaming Engine"
                + " (bytes through it per input byte) | + TLS on the rows written | **worker"
                + " µs/event = cores at 1M events/s** | vCPUs at "
                + f0(100 * model.number("utilization"))
                + "% | **n2d-standard-4 workers** | MB/s per vCPU | the study |\n"
                + "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for (Sizing s : sizings(m, model)) {
      String[] study = model.study().get(Integer.toString(s.step()));
      TuningStep step = TuningStep.of(s.step());
      t.append("| ")
          .append(s.step())
          .append(' ')
          .append(step.writeMethod())
          .append(", ")
          .append(step.format())
          .append(" | ")
          .append(s.source().equals("kafka") ? "Kafka" : "Pub/Sub")
          .append(" | ")
          .append(f0(s.measured()))
          .append(" | ")
          .append(f1(s.local()))
          .append(" | ")
          .append(f1(s.nativeRead()))
          .append(" | ")
          .append(f1(s.jitDropped()))
          .append(" | ")
          .append(f0(s.kept()))
          .append(" | ")
          .append(f1(s.shuffle()))
          .append(" (")
          .append(f1(s.shuffleRatio()))
          .append(") | ")
          .append(f1(s.tls()))
          .append(" | **")
          .append(f0(s.worker()))
          .append("** | ")
          .append(f0(s.vcpus()))
          .append(" | **")
          .append(s.workers())
          .append("** | ")
          .append(f1(s.mbPerSecPerVcpu()))
          .append(" | ")
          .append(study == null ? "not published" : study[0] + " MB/s per vCPU; " + study[1])
          .append(" |\n");
    }
    return t.toString();
  }

  static String assumptionsTable(Measured m, Model model) {
    StringBuilder t = new StringBuilder("| assumption | value | what and why |\n|---|---|---|\n");
    for (Map.Entry<String, Param> p : model.params().entrySet()) {
      t.append("| `")
          .append(p.getKey())
          .append("` | ")
          .append(p.getValue().value())
          .append(" | ")
          .append(p.getValue().why())
          .append(" |\n");
    }
    t.append("| (derived) one RPC leg | ")
        .append(String.format(Locale.ROOT, "%.2f", rpcMicrosPerByte(m, model) * 1000))
        .append(
            " ns per byte | gRPC transport per appended byte in `rpc_price_runs`, plus TLS |\n");
    t.append("\n| component of the measured CPU | in the model | why |\n|---|---|---|\n");
    for (Map.Entry<String, Treatment> e : model.treatments().entrySet()) {
      t.append("| ").append(e.getKey()).append(" | ").append(describe(e.getValue().kind()));
      e.getValue()
          .bySource()
          .forEach(
              (source, kind) ->
                  t.append("; from ").append(source).append(": ").append(describe(kind)));
      t.append(" | ").append(e.getValue().why()).append(" |\n");
    }
    return t.toString();
  }

  /** One line per step the study published a figure for: the model's MB/s per vCPU against it. */
  static String studyComparison(Measured m, Model model) {
    StringBuilder t = new StringBuilder();
    for (Sizing s : sizings(m, model)) {
      String[] study = model.study().get(Integer.toString(s.step()));
      if (study == null) {
        continue;
      }
      double published = Double.parseDouble(study[0]);
      t.append("- Step ")
          .append(s.step())
          .append(" from ")
          .append(s.source().equals("kafka") ? "Kafka" : "Pub/Sub")
          .append(": the model ")
          .append(f1(s.mbPerSecPerVcpu()))
          .append(" MB/s per vCPU (")
          .append(s.workers())
          .append(" workers), the study ")
          .append(study[0])
          .append(" MB/s per vCPU (")
          .append(study[1])
          .append("): the model needs ")
          .append(String.format(Locale.ROOT, "%.2f", published / s.mbPerSecPerVcpu()))
          .append("x the study's vCPUs.\n");
    }
    return t.toString();
  }

  private static String describe(String kind) {
    return switch (kind) {
      case "keep" -> "kept";
      case "local" -> "dropped: local only";
      case "native" -> "dropped: native on Dataflow";
      case "jit" -> "dropped but a steady share";
      default -> kind;
    };
  }

  /** n2d-standard-4 workers of each Kafka run under each sensitivity of model.tsv. */
  static String sensitivityTable(Measured m, Model model) {
    List<String> runs = m.runs().stream().filter(r -> r.endsWith(" kafka")).toList();
    StringBuilder t = new StringBuilder("| n2d-standard-4 workers at 1M events/s, if |");
    StringBuilder rule = new StringBuilder("|---|");
    for (String run : runs) {
      t.append(" step ").append(run.split(" ")[0]).append(" |");
      rule.append("---:|");
    }
    t.append('\n').append(rule).append('\n');
    Map<String, String> rows = new LinkedHashMap<>();
    rows.put("the assumptions above", null);
    rows.putAll(model.sensitivities());
    for (Map.Entry<String, String> row : rows.entrySet()) {
      Model changed = row.getValue() == null ? model : model.with(row.getValue());
      t.append("| ").append(row.getKey());
      if (row.getValue() != null) {
        t.append(" (`").append(row.getValue()).append("`)");
      }
      t.append(" |");
      for (String run : runs) {
        t.append(' ').append(size(m, changed, run).workers()).append(" |");
      }
      t.append('\n');
    }
    return t.toString();
  }

  /** The raw inputs for RESULTS.md section 10: the runs, then each component per run. */
  static String measuredTables(Measured m) {
    StringBuilder t = new StringBuilder("| run |");
    StringBuilder rule = new StringBuilder("|---|");
    for (String run : m.runs()) {
      t.append(' ').append(run).append(" |");
      rule.append("---:|");
    }
    t.append('\n').append(rule).append('\n');
    for (Map.Entry<String, Map<String, String>> row : m.rows().entrySet()) {
      String key = row.getKey();
      if (key.startsWith("run:")) {
        appendRow(t, key.substring(4).replace('_', ' '), row.getValue(), m.runs(), false);
      }
    }
    for (String window : List.of("half", "whole")) {
      t.append("| **")
          .append(
              window.equals("half")
                  ? "second half of the window, µs of pipeline CPU per event (the model's input)"
                  : "whole window, µs of pipeline CPU per event")
          .append("** |")
          .append(" |".repeat(m.runs().size()))
          .append('\n');
      for (String component : m.components()) {
        appendRow(t, component, m.rows().get(window + ":" + component), m.runs(), false);
      }
      appendRow(t, "total", m.rows().get(window + ":total"), m.runs(), true);
    }
    return t.toString();
  }

  private static void appendRow(
      StringBuilder t, String label, Map<String, String> values, List<String> runs, boolean bold) {
    t.append("| ").append(bold ? "**" + label + "**" : label).append(" |");
    for (String run : runs) {
      String v = values.getOrDefault(run, "");
      t.append(' ').append(bold && !v.isEmpty() ? "**" + v + "**" : v).append(" |");
    }
    t.append('\n');
  }

  @Test
  public void everyMeasuredComponentHasATreatmentAndTheSplitAddsUp() throws IOException {
    Measured m = measured();
    Model model = model();
    assertEquals(
        "model.tsv treats exactly the components measured.tsv has",
        m.components(),
        new ArrayList<>(model.treatments().keySet()));
    for (String run : m.runs()) {
      assertEquals("run " + run + " is OK", "OK", m.text("run:result", run));
      for (String window : List.of("half", "whole")) {
        double sum = 0;
        for (String component : m.components()) {
          sum += m.number(window + ":" + component, run);
        }
        // Each figure is rounded to 0.1 µs.
        assertEquals(
            window + " components of " + run + " add up to its total",
            m.number(window + ":total", run),
            sum,
            0.05 * m.components().size() + 0.05);
      }
      Sizing s = size(m, model, run);
      assertEquals(
          run + ": measured = dropped + kept",
          s.measured(),
          s.local() + s.nativeRead() + s.jitDropped() + s.kept(),
          0.05 * m.components().size() + 0.05);
      assertTrue(run + ": a worker needs some CPU", s.worker() > 0);
    }
  }

  @Test
  public void sizingTablesInTheDocsAreGenerated() throws IOException {
    Measured m = measured();
    Model model = model();
    assertNull(
        GeneratedText.checkBlock(
            REPO.resolve("docs/TUNING.md"), "sizing model table", modelTable(m, model)));
    assertNull(
        GeneratedText.checkBlock(
            REPO.resolve("docs/TUNING.md"),
            "sizing model assumptions",
            assumptionsTable(m, model)));
    assertNull(
        GeneratedText.checkBlock(
            REPO.resolve("docs/TUNING.md"),
            "sizing model sensitivity",
            sensitivityTable(m, model)));
    assertNull(
        GeneratedText.checkBlock(
            REPO.resolve("docs/TUNING.md"),
            "sizing model against the study",
            studyComparison(m, model)));
    assertNull(
        GeneratedText.checkBlock(
            REPO.resolve("benchmarks/RESULTS.md"), "sizing measured inputs", measuredTables(m)));
  }
}
