package io.thriftbq.local.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.beam.sdk.metrics.DistributionResult;
import org.apache.beam.sdk.metrics.MetricKey;
import org.apache.beam.sdk.metrics.MetricName;
import org.apache.beam.sdk.metrics.MetricQueryResults;
import org.apache.beam.sdk.metrics.MetricResult;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * Reads a running embedded Flink job's metrics in this JVM. The Flink runner hands Beam counters
 * and distributions to Flink's metric system after every bundle, but to the {@code PipelineResult}
 * only when the operators close, so a streaming job's result has no metrics while it runs. This
 * reporter, named in the embedded cluster's configuration ({@link LocalEngine}), keeps a reference
 * to the Beam metrics and to each task's {@code numBytesOut} (what the task serialized into a data
 * exchange: with one task slot, the bytes through shuffles), per job.
 */
public final class FlinkMetrics implements MetricReporterFactory, MetricReporter {
  private static final String TASK_BYTES_OUT = "numBytesOut";
  private static final String JOB_RESTARTS = "numRestarts";

  /** Per job, in the order jobs were first seen. */
  private static final Map<String, Job> JOBS = new LinkedHashMap<>();

  private static final class Job {
    final Map<Metric, MetricName> beamMetrics = new IdentityHashMap<>();
    final Map<Counter, String> taskBytesOut = new IdentityHashMap<>();
    Gauge<?> restarts;
  }

  @Override
  public MetricReporter createMetricReporter(Properties properties) {
    return this;
  }

  @Override
  public void open(MetricConfig config) {}

  @Override
  public void close() {}

  @Override
  public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
    Map<String, String> variables = group.getAllVariables();
    String jobId = variables.getOrDefault("<job_id>", "?");
    synchronized (JOBS) {
      Job job = JOBS.computeIfAbsent(jobId, id -> new Job());
      if (TASK_BYTES_OUT.equals(name)
          && metric instanceof Counter counter
          && !variables.containsKey("<operator_id>")) {
        job.taskBytesOut.put(counter, variables.getOrDefault("<task_name>", "?"));
        return;
      }
      if (JOB_RESTARTS.equals(name)
          && metric instanceof Gauge<?> gauge
          && !variables.containsKey("<task_id>")) {
        job.restarts = gauge;
        return;
      }
      // The runner names Beam metrics NAMESPACE.NAME; Flink's own names have no dot.
      int dot = name.indexOf('.');
      if (dot > 0 && (metric instanceof Counter || metric instanceof Gauge)) {
        job.beamMetrics.put(
            metric, MetricName.named(name.substring(0, dot), name.substring(dot + 1)));
      }
    }
  }

  @Override
  public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
    // Keep the last value: the report may be built after the job was cancelled.
  }

  private static Job latest() {
    Job latest = null;
    for (Job job : JOBS.values()) {
      latest = job;
    }
    return latest;
  }

  /**
   * How often Flink has restarted the latest job after a failure (its job-level {@code
   * numRestarts}): every restart replays what was read since the last checkpoint.
   *
   * @throws IllegalStateException if the job has not registered the metric (yet)
   */
  public static long latestJobRestarts() {
    synchronized (JOBS) {
      Job job = latest();
      if (job == null || job.restarts == null || !(job.restarts.getValue() instanceof Number n)) {
        throw new IllegalStateException("No job has reported " + JOB_RESTARTS + " yet");
      }
      return n.longValue();
    }
  }

  /** Bytes the latest job's tasks wrote into data exchanges so far. */
  public static long latestJobExchangedBytes() {
    synchronized (JOBS) {
      Job job = latest();
      if (job == null) {
        return 0;
      }
      long total = 0;
      for (Counter counter : job.taskBytesOut.keySet()) {
        total += counter.getCount();
      }
      return total;
    }
  }

  /** Bytes per task (named by its operator chain) that wrote into a data exchange, so far. */
  public static Map<String, Long> latestJobExchangedBytesByTask() {
    Map<String, Long> byTask = new java.util.TreeMap<>();
    synchronized (JOBS) {
      Job job = latest();
      if (job != null) {
        job.taskBytesOut.forEach(
            (counter, task) -> {
              if (counter.getCount() > 0) {
                byTask.merge(task, counter.getCount(), Long::sum);
              }
            });
      }
    }
    return byTask;
  }

  /** The latest job's Beam metrics in {@code namespace}, summed over operators and subtasks. */
  public static MetricQueryResults latestJob(String namespace) {
    Map<String, Long> counters = new HashMap<>();
    Map<String, DistributionResult> distributions = new HashMap<>();
    synchronized (JOBS) {
      Job job = latest();
      if (job != null) {
        for (Map.Entry<Metric, MetricName> e : job.beamMetrics.entrySet()) {
          if (!e.getValue().getNamespace().equals(namespace)) {
            continue;
          }
          String name = e.getValue().getName();
          if (e.getKey() instanceof Counter counter) {
            counters.merge(name, counter.getCount(), Long::sum);
          } else if (((Gauge<?>) e.getKey()).getValue() instanceof DistributionResult d) {
            distributions.merge(name, d, FlinkMetrics::merge);
          }
        }
      }
    }
    List<MetricResult<Long>> counterResults = new ArrayList<>();
    counters.forEach(
        (name, value) ->
            counterResults.add(
                MetricResult.attempted(
                    MetricKey.create("all", MetricName.named(namespace, name)), value)));
    List<MetricResult<DistributionResult>> distributionResults = new ArrayList<>();
    distributions.forEach(
        (name, value) ->
            distributionResults.add(
                MetricResult.attempted(
                    MetricKey.create("all", MetricName.named(namespace, name)), value)));
    return MetricQueryResults.create(
        counterResults, distributionResults, List.of(), List.of(), List.of(), List.of());
  }

  private static DistributionResult merge(DistributionResult a, DistributionResult b) {
    return DistributionResult.create(
        a.getSum() + b.getSum(),
        a.getCount() + b.getCount(),
        Math.min(a.getMin(), b.getMin()),
        Math.max(a.getMax(), b.getMax()));
  }
}
